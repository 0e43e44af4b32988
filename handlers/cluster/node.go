package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"time"

	"satranc/engine/play"
	"satranc/handlers"
	"satranc/store"
	"satranc/store/postgres"
)

// Several nodes on one database (docs/scaling.md): each live game is
// owned by one node at a time, which holds the game's lease in the
// database and runs its writer; the other nodes forward the game's
// requests to it (forward.go). A node renews its leases every
// leaseTTL/3; when it stops, it releases them, and when it dies they
// lapse, and the next request for a game on another node takes it over
// from the database, as a restart would.

// leaseTTL is how long a game's lease lasts without renewal: how long a
// dead node's games wait before another takes them over.
const leaseTTL = 10 * time.Second

// leaseKeepFinished is how long a node keeps a finished game's lease, so
// that a rematch is decided where the game was played.
const leaseKeepFinished = 10 * time.Minute

// releaseTimeout bounds Release.
const releaseTimeout = 5 * time.Second

// leases is the part of the store a node uses: the games' leases, the
// fence on its writes and the cluster's roles (store/postgres).
type leases interface {
	FenceAs(node string)
	ClusterSecret(ctx context.Context) (string, error)
	ClaimGame(ctx context.Context, id int64, node, addr string, ttl time.Duration) (postgres.Lease, error)
	GameLease(ctx context.Context, id int64) (postgres.Lease, bool, error)
	GameByInvite(ctx context.Context, token string) (play.GameRecord, error)
	Role(ctx context.Context, name string) (postgres.Lease, bool, error)
	ClaimRole(ctx context.Context, name, node, addr string, ttl time.Duration) (postgres.Lease, error)
	RenewLeases(ctx context.Context, node string, ttl time.Duration, endedAfter time.Time) (int64, error)
	RenewRoles(ctx context.Context, node string, ttl time.Duration) (int64, error)
	ReleaseLeases(ctx context.Context, node string) error
	ReleaseRoles(ctx context.Context, node string) error
}

// Node is this process's part in a cluster of nodes.
type Node struct {
	st   leases
	id   string   // host name, address and a nonce, new at each start
	addr *url.URL // where the other nodes reach this one
	log  *slog.Logger
	// secret, shared by the nodes through the database, marks the
	// requests one node forwards to another (forward.go).
	secret string
}

// Join makes this process a node of the cluster on st's database,
// reachable by the other nodes at addr. From then on the store's writes
// of a game check that this node holds the game's lease (fencing).
func Join(ctx context.Context, st *postgres.Store, addr *url.URL, log *slog.Logger) (*Node, error) {
	host, err := os.Hostname()
	if err != nil {
		host = "node"
	}
	nonce := make([]byte, 4)
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("cluster: node id: %w", err)
	}
	id := host + "-" + addr.Host + "-" + hex.EncodeToString(nonce)
	secret, err := st.ClusterSecret(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	st.FenceAs(id)
	return &Node{st: st, id: id, addr: addr, log: log, secret: secret}, nil
}

// ID returns the node's id.
func (n *Node) ID() string { return n.id }

// Claim is play.Cluster.Claim: this node may run game id's writer if it
// holds the game's lease, which it takes when nobody else holds it;
// otherwise the error is play.ErrNotOwner.
func (n *Node) Claim(ctx context.Context, id int64) error {
	l, err := n.st.ClaimGame(ctx, id, n.id, n.addr.String(), leaseTTL)
	if err != nil {
		return fmt.Errorf("cluster: claim game %d: %w", id, err)
	}
	if l.Node != n.id {
		return fmt.Errorf("%w: %s", play.ErrNotOwner, l.Node)
	}
	return nil
}

// GameOwner is handlers.Owners.GameOwner.
func (n *Node) GameOwner(ctx context.Context, id int64) (*url.URL, error) {
	l, ok, err := n.st.GameLease(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("cluster: game %d's owner: %w", id, err)
	}
	if !ok || l.Node == n.id {
		return nil, nil
	}
	return url.Parse(l.Addr)
}

// InviteOwner is handlers.Owners.InviteOwner.
func (n *Node) InviteOwner(ctx context.Context, token string) (*url.URL, error) {
	g, err := n.st.GameByInvite(ctx, token)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil // served here: a clear "not found"
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: an invite's owner: %w", err)
	}
	return n.GameOwner(ctx, g.ID)
}

// LobbyOwner is handlers.Owners.LobbyOwner: the node that holds the
// lobby's role runs the queues; the first lobby request when nobody
// holds it (or its holder's lease lapsed) makes this node take it.
func (n *Node) LobbyOwner(ctx context.Context) (*url.URL, error) {
	l, ok, err := n.st.Role(ctx, postgres.RoleLobby)
	if err == nil && !ok {
		l, err = n.st.ClaimRole(ctx, postgres.RoleLobby, n.id, n.addr.String(), leaseTTL)
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: the lobby's owner: %w", err)
	}
	if l.Node == n.id {
		return nil, nil
	}
	return url.Parse(l.Addr)
}

// Owners returns n as handlers.Owners, or nil (a single node) when n is
// nil.
func (n *Node) Owners() handlers.Owners {
	if n == nil {
		return nil
	}
	return n
}

var _ handlers.Owners = (*Node)(nil)

// Renew renews this node's leases and roles every leaseTTL/3 until ctx is
// done.
func (n *Node) Renew(ctx context.Context) {
	t := time.NewTicker(leaseTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if _, err := n.st.RenewLeases(ctx, n.id, leaseTTL, now.Add(-leaseKeepFinished)); err != nil && ctx.Err() == nil {
				n.log.Error("cluster: renewing the leases failed", "err", err)
			}
			if _, err := n.st.RenewRoles(ctx, n.id, leaseTTL); err != nil && ctx.Err() == nil {
				n.log.Error("cluster: renewing the roles failed", "err", err)
			}
		}
	}
}

// Release gives up this node's leases and roles; call it after the
// games' writers stopped, with a context that is not cancelled by the
// shutdown (it bounds itself by releaseTimeout).
func (n *Node) Release(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, releaseTimeout)
	defer cancel()
	if err := n.st.ReleaseLeases(ctx, n.id); err != nil {
		n.log.Error("cluster: releasing the leases failed", "err", err)
	}
	if err := n.st.ReleaseRoles(ctx, n.id); err != nil {
		n.log.Error("cluster: releasing the roles failed", "err", err)
	}
}
