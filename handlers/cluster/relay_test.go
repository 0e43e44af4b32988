package cluster

import (
	"errors"
	"testing"
	"time"

	"satranc/engine/game"
	"satranc/engine/play"
)

// TestNodeSubject: a node's id (host, address, nonce) becomes one token
// of a NATS subject.
func TestNodeSubject(t *testing.T) {
	for _, tc := range []struct{ node, what, want string }{
		{"web1-10.0.0.2:8080-ab12", "snapshot", "satranc.node.web1-10_0_0_2_8080-ab12.snapshot"},
		{"a b.c*>", "presence", "satranc.node.a_b_c__.presence"},
	} {
		if got := nodeSubject(tc.node, tc.what); got != tc.want {
			t.Errorf("nodeSubject(%q, %q) = %q, want %q", tc.node, tc.what, got, tc.want)
		}
	}
	if got := gameSubject(42); got != "satranc.game.42" {
		t.Errorf("gameSubject(42) = %q", got)
	}
}

// TestRelaySnapshotAndMutes: an owner answers a snapshot request with the
// game's snapshot and each side's chat mute; a request for a game it
// cannot give, or to a node that does not answer, is an error.
func TestRelaySnapshotAndMutes(t *testing.T) {
	_, _, nodes := newTestCluster(t, "a", "b")
	a, b := nodes["a"], nodes["b"]
	a.games.snaps[7] = snapshotAt(7, 3)
	a.games.muted[2] = true // Black muted White

	got, err := b.bus.snapshot(t.Context(), "a", 7)
	if err != nil {
		t.Fatalf("snapshot from a: %v", err)
	}
	if got.Node != "a" || got.Msg.Snapshot.Ply != 3 || got.Muted != [2]bool{false, true} || got.Taken.IsZero() {
		t.Errorf("snapshot from a: node %q ply %d muted %v taken %v; want a, 3, [false true], a time",
			got.Node, got.Msg.Snapshot.Ply, got.Muted, got.Taken)
	}
	if _, err := b.bus.snapshot(t.Context(), "a", 8); err == nil {
		t.Error("snapshot of a game a does not have: no error")
	}
	if _, err := b.bus.snapshot(t.Context(), "c", 7); !errors.Is(err, errNoResponders) {
		t.Errorf("snapshot from a node that is not there: %v, want %v wrapped", err, errNoResponders)
	}
}

// TestRelayEndings: a game's end (or a voided result) announced by one
// node reaches the Endings topic of the others' hubs, not its own again
// (it published it locally already); other events are not announced.
func TestRelayEndings(t *testing.T) {
	_, _, nodes := newTestCluster(t, "a", "b")
	a, b := nodes["a"], nodes["b"]
	subA, subB := a.hub.Subscribe(play.Endings), b.hub.Subscribe(play.Endings)
	defer subA.Close()
	defer subB.Close()

	a.bus.Announce(moved(7, 1)) // not an ending: not sent
	a.bus.Announce(play.Event{GameID: 7, Payload: game.Ended{Stamp: game.Stamp{Ply: 4}, Outcome: game.Outcome{Side: 1}}})
	a.bus.Announce(play.Event{GameID: 8, Payload: play.ResultVoided{}})

	for _, want := range []int64{7, 8} {
		select {
		case e := <-subB.C():
			if e.GameID != want {
				t.Errorf("b's ending of game %d, want %d", e.GameID, want)
			}
		case <-time.After(time.Second):
			t.Fatalf("b got no ending of game %d", want)
		}
	}
	select {
	case e := <-subA.C():
		t.Errorf("a published its own ending again: %+v", e)
	case e := <-subB.C():
		t.Errorf("b got more than the two endings: %+v", e)
	default:
	}
}
