package main

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
)

// Several nodes on one database (docs/scaling.md): each live game is
// owned by one node at a time, which holds the game's lease in the
// database and runs its writer; the other nodes forward the game's
// requests to it (handlers/forward.go). A node renews its leases every
// leaseTTL/3; when it stops, it releases them, and when it dies they
// lapse, and the next request for a game on another node takes it over
// from the database, as a restart would.

// leaseTTL is how long a game's lease lasts without renewal: how long a
// dead node's games wait before another takes them over.
const leaseTTL = 10 * time.Second

// leaseKeepFinished is how long a node keeps a finished game's lease, so
// that a rematch is decided where the game was played.
const leaseKeepFinished = 10 * time.Minute

// cluster is this node's part in a cluster of nodes.
type cluster struct {
	st   *store.Store
	node string   // this node's id: host name and a nonce, new at each start
	addr *url.URL // where the other nodes reach this one
	log  *slog.Logger
}

// newCluster makes this node a member of the cluster on st's database,
// reachable by the other nodes at addr.
func newCluster(st *store.Store, addr *url.URL, log *slog.Logger) (*cluster, error) {
	host, err := os.Hostname()
	if err != nil {
		host = "node"
	}
	nonce := make([]byte, 4)
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("cluster: node id: %w", err)
	}
	node := host + "-" + addr.Host + "-" + hex.EncodeToString(nonce)
	st.Node = node // the store's writes of a game check its lease (fencing)
	return &cluster{st: st, node: node, addr: addr, log: log}, nil
}

// claim is play.Config.Claim: this node may run game id's writer if it
// holds the game's lease, which it takes when nobody else holds it.
func (c *cluster) claim(ctx context.Context, id int64) error {
	l, err := c.st.ClaimGame(ctx, id, c.node, c.addr.String(), leaseTTL)
	if err != nil {
		return err
	}
	if l.Node != c.node {
		return fmt.Errorf("%w: %s", play.ErrNotOwner, l.Node)
	}
	return nil
}

// GameOwner is handlers.Owners.GameOwner.
func (c *cluster) GameOwner(ctx context.Context, id int64) (*url.URL, error) {
	l, ok, err := c.st.GameLease(ctx, id)
	if err != nil || !ok || l.Node == c.node {
		return nil, err
	}
	return url.Parse(l.Addr)
}

// InviteOwner is handlers.Owners.InviteOwner.
func (c *cluster) InviteOwner(ctx context.Context, token string) (*url.URL, error) {
	g, err := c.st.GameByInvite(ctx, token)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil // served here: a clear "not found"
	}
	if err != nil {
		return nil, err
	}
	return c.GameOwner(ctx, g.ID)
}

// LobbyOwner is handlers.Owners.LobbyOwner: the node that holds the
// lobby's role runs the queues; the first lobby request when nobody
// holds it (or its holder's lease lapsed) makes this node take it.
func (c *cluster) LobbyOwner(ctx context.Context) (*url.URL, error) {
	l, ok, err := c.st.Role(ctx, store.RoleLobby)
	if err == nil && !ok {
		l, err = c.st.ClaimRole(ctx, store.RoleLobby, c.node, c.addr.String(), leaseTTL)
	}
	if err != nil || l.Node == c.node {
		return nil, err
	}
	return url.Parse(l.Addr)
}

// renew renews this node's leases every leaseTTL/3 until ctx is done.
func (c *cluster) renew(ctx context.Context) {
	t := time.NewTicker(leaseTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if _, err := c.st.RenewLeases(ctx, c.node, leaseTTL, now.Add(-leaseKeepFinished)); err != nil && ctx.Err() == nil {
				c.log.Error("cluster: renewing the leases failed", "err", err)
			}
			if _, err := c.st.RenewRoles(ctx, c.node, leaseTTL); err != nil && ctx.Err() == nil {
				c.log.Error("cluster: renewing the roles failed", "err", err)
			}
		}
	}
}

// release gives up this node's leases, after its games' writers stopped.
func (c *cluster) release() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.st.ReleaseLeases(ctx, c.node); err != nil {
		c.log.Error("cluster: releasing the leases failed", "err", err)
	}
	if err := c.st.ReleaseRoles(ctx, c.node); err != nil {
		c.log.Error("cluster: releasing the roles failed", "err", err)
	}
}

var _ handlers.Owners = (*cluster)(nil)

// owners is cl as handlers.Owners, nil (a single node) when cl is nil.
func owners(cl *cluster) handlers.Owners {
	if cl == nil {
		return nil
	}
	return cl
}
