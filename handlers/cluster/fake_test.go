package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"sync"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/live"
	"satranc/engine/play"
	"satranc/store"
	"satranc/store/postgres"
)

// fakeNet is an in-memory NATS for the tests: every node's transport is
// the same fakeNet. Messages are delivered at once, in order, to the
// subscribers of their subject; requests go to the subject's answerer.
type fakeNet struct {
	mu      sync.Mutex
	subs    map[string]map[int]func([]byte)
	answers map[string]func([]byte) []byte
	next    int
	down    bool
	closed  int
}

func newFakeNet() *fakeNet {
	return &fakeNet{subs: make(map[string]map[int]func([]byte)), answers: make(map[string]func([]byte) []byte)}
}

func (n *fakeNet) Publish(subject string, data []byte) error {
	n.mu.Lock()
	var fns []func([]byte)
	for _, fn := range n.subs[subject] {
		fns = append(fns, fn)
	}
	n.mu.Unlock()
	for _, fn := range fns {
		fn(data)
	}
	return nil
}

func (n *fakeNet) Subscribe(subject string, fn func([]byte)) (func() error, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.next++
	id := n.next
	if n.subs[subject] == nil {
		n.subs[subject] = make(map[int]func([]byte))
	}
	n.subs[subject][id] = fn
	return func() error {
		n.mu.Lock()
		defer n.mu.Unlock()
		delete(n.subs[subject], id)
		return nil
	}, nil
}

func (n *fakeNet) Answer(subject string, fn func([]byte) []byte) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.answers[subject] = fn
	return nil
}

var errNoResponders = errors.New("fake: no responders")

func (n *fakeNet) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	n.mu.Lock()
	fn := n.answers[subject]
	n.mu.Unlock()
	if fn == nil {
		return nil, errNoResponders
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return fn(data), nil
}

func (n *fakeNet) Flush(ctx context.Context) error { return ctx.Err() }

func (n *fakeNet) Connected() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return !n.down
}

func (n *fakeNet) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed++
}

// subscribers returns how many subscriptions subject has.
func (n *fakeNet) subscribers(subject string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.subs[subject])
}

// fakeLeases is the store's leases: game id → its owner's id.
type fakeLeases struct {
	mu     sync.Mutex
	owners map[int64]string
}

func (l *fakeLeases) setOwner(id int64, node string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.owners[id] = node
}

func (l *fakeLeases) lease(node string) postgres.Lease {
	return postgres.Lease{Node: node, Addr: "http://" + node + ".test", Epoch: 1}
}

func (l *fakeLeases) ClaimGame(_ context.Context, id int64, node, _ string, _ time.Duration) (postgres.Lease, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.owners[id] == "" {
		l.owners[id] = node
	}
	return l.lease(l.owners[id]), nil
}

func (l *fakeLeases) GameLease(_ context.Context, id int64) (postgres.Lease, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.owners[id] == "" {
		return postgres.Lease{}, false, nil
	}
	return l.lease(l.owners[id]), true, nil
}

func (l *fakeLeases) GameByInvite(context.Context, string) (play.GameRecord, error) {
	return play.GameRecord{}, store.ErrNotFound
}

func (l *fakeLeases) Role(context.Context, string) (postgres.Lease, bool, error) {
	return postgres.Lease{}, false, nil
}

func (l *fakeLeases) ClaimRole(_ context.Context, _, node, _ string, _ time.Duration) (postgres.Lease, error) {
	return l.lease(node), nil
}

func (l *fakeLeases) RenewLeases(context.Context, string, time.Duration, time.Time) (int64, error) {
	return 0, nil
}

func (l *fakeLeases) RenewRoles(context.Context, string, time.Duration) (int64, error) {
	return 0, nil
}

func (l *fakeLeases) FenceAs(string)                                {} // no store writes here to fence
func (l *fakeLeases) ClusterSecret(context.Context) (string, error) { return testSecret, nil }
func (l *fakeLeases) ReleaseLeases(context.Context, string) error   { return nil }
func (l *fakeLeases) ReleaseRoles(context.Context, string) error    { return nil }

// presenceCall is a call of Games.Connected (on) or Disconnected.
type presenceCall struct {
	game, user int64
	on         bool
}

// fakeGames is the games a node owns: each game's snapshot, the users
// who muted their opponent's chat, and the presence calls it received.
type fakeGames struct {
	mu         sync.Mutex
	snaps      map[int64]play.Snapshot
	muted      map[int64]bool
	calls      []presenceCall
	connectErr error
}

func newFakeGames() *fakeGames {
	return &fakeGames{snaps: make(map[int64]play.Snapshot), muted: make(map[int64]bool)}
}

func (g *fakeGames) Game(_ context.Context, id int64) (play.Snapshot, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.snaps[id]
	if !ok {
		return play.Snapshot{}, fmt.Errorf("fake: game %d: %w", id, play.ErrNotFound)
	}
	return s, nil
}

func (g *fakeGames) ChatMuted(_, user int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.muted[user]
}

func (g *fakeGames) Connected(_ context.Context, id, user int64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.connectErr != nil {
		return g.connectErr
	}
	g.calls = append(g.calls, presenceCall{id, user, true})
	return nil
}

func (g *fakeGames) Disconnected(id, user int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, presenceCall{id, user, false})
}

// presenceCalls returns the presence calls received so far.
func (g *fakeGames) presenceCalls() []presenceCall {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]presenceCall(nil), g.calls...)
}

// testNode is one node of a test cluster on a fakeNet.
type testNode struct {
	bus   *Bus
	hub   *live.Hub[int64, *play.Event]
	games *fakeGames
}

// newTestCluster starts the nodes named on one fakeNet and one fake
// store; each serves its own fakeGames. They are closed at the end of
// the test.
func newTestCluster(t *testing.T, names ...string) (*fakeNet, *fakeLeases, map[string]*testNode) {
	t.Helper()
	net, leases := newFakeNet(), &fakeLeases{owners: make(map[int64]string)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	nodes := make(map[string]*testNode)
	for _, name := range names {
		addr, _ := url.Parse("http://" + name + ".test")
		n := &testNode{bus: newBus(&Node{st: leases, id: name, addr: addr, log: log}, log),
			hub: live.New[int64, *play.Event](0), games: newFakeGames()}
		n.bus.conn = net
		if err := n.bus.start(t.Context(), n.hub); err != nil {
			t.Fatal(err)
		}
		if err := n.bus.ServeGames(t.Context(), n.games); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.bus.Close)
		nodes[name] = n
	}
	return net, leases, nodes
}

// snapshotAt returns a snapshot of game id at ply, White user 1 against
// Black user 2.
func snapshotAt(id int64, ply int) play.Snapshot {
	return play.Snapshot{
		ID: id, White: game.Human(1), Black: game.Human(2), Status: game.Active,
		Start: chess.StartPosition(), Position: chess.StartPosition(), Ply: ply,
	}
}

// moved returns an event of game id at ply, with the snapshot after it.
func moved(id int64, ply int) play.Event {
	snap := snapshotAt(id, ply)
	return play.Event{GameID: id, Payload: game.DrawOffered{Stamp: game.Stamp{Ply: ply}, By: chess.White}, After: &snap}
}
