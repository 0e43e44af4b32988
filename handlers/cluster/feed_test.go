package cluster

import (
	"errors"
	"slices"
	"testing"
	"time"

	"satranc/handlers"

	"satranc/engine/play"
)

// TestBusFeedKeepsNewest: a stream from the bus keeps the newest snapshot
// whatever order the messages come in: a later ply, or at the same ply the
// one its owner took later; a new owner's message always holds.
func TestBusFeedKeepsNewest(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	msg := func(node string, ply int, taken time.Time, offer bool) gameMsg {
		return gameMsg{Node: node, Taken: taken, Msg: eventMsg{Snapshot: play.Snapshot{Ply: ply, DrawOffer: offer}}}
	}
	f := &busFeed{}
	for _, step := range []struct {
		g         gameMsg
		wantPly   int
		wantOffer bool
	}{
		{msg("a", 2, t0, true), 2, true},                      // the first snapshot
		{msg("a", 2, t0.Add(-time.Second), false), 2, true},   // taken before it: stale
		{msg("a", 1, t0.Add(time.Second), false), 2, true},    // an earlier ply: stale
		{msg("a", 2, t0.Add(time.Second), false), 2, false},   // the offer declined since
		{msg("a", 3, t0.Add(2*time.Second), false), 3, false}, // a move
		{msg("b", 3, t0.Add(-time.Hour), true), 3, true},      // a new owner, its own clock
		{msg("b", 3, t0.Add(-2*time.Hour), false), 3, true},   // and then stale by its clock
	} {
		f.take(step.g)
		if got := f.msg.Msg.Snapshot; got.Ply != step.wantPly || got.DrawOffer != step.wantOffer {
			t.Fatalf("after %+v: ply %d offer %v; want ply %d offer %v", step.g, got.Ply, got.DrawOffer, step.wantPly, step.wantOffer)
		}
	}
}

// follow follows game id on node n, failing the test on an error.
func follow(t *testing.T, n *testNode, id int64) handlers.GameFeed {
	t.Helper()
	f, err := n.bus.Feeds().Follow(t.Context(), id)
	if err != nil {
		t.Fatalf("Follow(%d): %v", id, err)
	}
	return f
}

// nextEvent returns f's next event, failing the test after a second.
func nextEvent(t *testing.T, f handlers.GameFeed) *play.Event {
	t.Helper()
	select {
	case e, ok := <-f.Events():
		if !ok {
			t.Fatal("the feed ended")
		}
		return e
	case <-time.After(time.Second):
		t.Fatal("no event within a second")
	}
	panic("unreachable")
}

// TestBusFeedFollow: a stream on node b of a game node a owns starts
// from a's snapshot, then gets each event a relays with the snapshot
// after it; the streams of one game share one subscription on the bus,
// which the last one to close ends.
func TestBusFeedFollow(t *testing.T) {
	net, leases, nodes := newTestCluster(t, "a", "b")
	a, b := nodes["a"], nodes["b"]
	leases.setOwner(7, "a")
	a.games.snaps[7] = snapshotAt(7, 2)
	a.games.muted[1] = true

	f1, f2 := follow(t, b, 7), follow(t, b, 7)
	if n := net.subscribers(gameSubject(7)); n != 1 {
		t.Errorf("two streams of game 7: %d subscriptions on the bus, want 1", n)
	}
	snap, err := f1.Snapshot(t.Context())
	if err != nil || snap.Ply != 2 {
		t.Fatalf("first snapshot: ply %d, %v; want 2", snap.Ply, err)
	}
	if !f1.ChatMuted(1) || f1.ChatMuted(2) || f1.ChatMuted(99) {
		t.Errorf("ChatMuted(1, 2, 99) = %v %v %v, want true false false", f1.ChatMuted(1), f1.ChatMuted(2), f1.ChatMuted(99))
	}

	a.bus.Relay(moved(7, 3))
	a.bus.Relay(moved(8, 1)) // another game: not followed
	for _, f := range []handlers.GameFeed{f1, f2} {
		if e := nextEvent(t, f); e.GameID != 7 || e.ID() != 3 {
			t.Errorf("event of game %d at ply %d, want game 7 at ply 3", e.GameID, e.ID())
		}
		if snap, _ := f.Snapshot(t.Context()); snap.Ply != 3 {
			t.Errorf("snapshot after the event: ply %d, want 3", snap.Ply)
		}
	}

	f1.Close()
	f1.Close() // idempotent
	if n := net.subscribers(gameSubject(7)); n != 1 {
		t.Errorf("one stream left: %d subscriptions, want 1", n)
	}
	f2.Close()
	if n := net.subscribers(gameSubject(7)); n != 0 {
		t.Errorf("no stream left: %d subscriptions, want 0", n)
	}
	for _, f := range []handlers.GameFeed{f1, f2} {
		select {
		case _, ok := <-f.Events():
			if ok {
				t.Error("an event after Close")
			}
		case <-time.After(time.Second):
			t.Error("Events not closed after Close")
		}
	}
}

// TestBusFeedRefused: no stream from the bus while it is down, for a game
// this node owns or nobody does, or when the owner does not answer; a
// refused stream leaves no subscription behind.
func TestBusFeedRefused(t *testing.T) {
	net, leases, nodes := newTestCluster(t, "a", "b")
	b := nodes["b"]
	leases.setOwner(7, "b")
	leases.setOwner(8, "gone") // a node that does not answer
	for _, tc := range []struct {
		name string
		id   int64
		down bool
	}{
		{"own game", 7, false},
		{"nobody's game", 9, false},
		{"owner silent", 8, false},
		{"bus down", 8, true},
	} {
		net.mu.Lock()
		net.down = tc.down
		net.mu.Unlock()
		f, err := b.bus.Feeds().Follow(t.Context(), tc.id)
		if err == nil {
			f.Close()
			t.Errorf("%s: Follow(%d) succeeded", tc.name, tc.id)
		}
		if tc.down && !errors.Is(err, errBusDown) {
			t.Errorf("%s: %v, want %v", tc.name, err, errBusDown)
		}
		if n := net.subscribers(gameSubject(tc.id)); n != 0 {
			t.Errorf("%s: %d subscriptions left", tc.name, n)
		}
	}
}

// TestBusFeedPresence: a player's stream from the bus tells the owner when
// it opens and closes; when a new owner's message arrives (the game was
// taken over) it tells the new owner that the player is there.
func TestBusFeedPresence(t *testing.T) {
	_, leases, nodes := newTestCluster(t, "a", "b", "c")
	a, b, c := nodes["a"], nodes["b"], nodes["c"]
	leases.setOwner(7, "a")
	a.games.snaps[7] = snapshotAt(7, 2)
	f := follow(t, b, 7)
	defer f.Close()

	if err := f.Connected(t.Context(), 1); err != nil {
		t.Fatalf("Connected: %v", err)
	}
	leases.setOwner(7, "c")
	c.bus.Relay(moved(7, 3)) // c took the game over
	nextEvent(t, f)
	f.Disconnected(1)

	if got, want := a.games.presenceCalls(), []presenceCall{{7, 1, true}}; !slices.Equal(got, want) {
		t.Errorf("the first owner's calls %v, want %v", got, want)
	}
	if got, want := c.games.presenceCalls(), []presenceCall{{7, 1, true}, {7, 1, false}}; !slices.Equal(got, want) {
		t.Errorf("the new owner's calls %v, want %v", got, want)
	}
}

// TestBusFeedLost: the streams served from the bus end when its
// connection is lost; a stream opened once it is back lives on.
func TestBusFeedLost(t *testing.T) {
	_, leases, nodes := newTestCluster(t, "a", "b")
	a, b := nodes["a"], nodes["b"]
	leases.setOwner(7, "a")
	a.games.snaps[7] = snapshotAt(7, 2)
	f := follow(t, b, 7)
	defer f.Close()
	b.bus.setConnected(false)
	select {
	case _, ok := <-f.Events():
		if ok {
			t.Fatal("an event, want the feed to end")
		}
	case <-time.After(time.Second):
		t.Fatal("the feed did not end when the bus was lost")
	}
	b.bus.setConnected(true)
	g := follow(t, b, 7)
	defer g.Close()
	a.bus.Relay(moved(7, 3))
	if e := nextEvent(t, g); e.ID() != 3 {
		t.Errorf("event at ply %d, want 3", e.ID())
	}
}
