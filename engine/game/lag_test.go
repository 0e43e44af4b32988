package game

import (
	"errors"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
)

// TestMoveWithLag: the first moves, which cost no time, get nothing back;
// once the clocks run a move gets its lag back within clock.LagCredit's
// bounds, and the restored game keeps the clock it ended with.
func TestMoveWithLag(t *testing.T) {
	g := newGame(t, "3+0", "")
	lag := 400 * time.Millisecond
	steps := []struct {
		uci  string
		at   time.Duration
		left time.Duration // the mover's clock after the move
	}{
		{"e2e4", 5 * time.Second, 3 * time.Minute},                                                   // first moves: no clock
		{"e7e5", 10 * time.Second, 3 * time.Minute},                                                  // starts White's clock
		{"g1f3", 12 * time.Second, 3*time.Minute - 2*time.Second + lag},                              // 2 s, 0.4 s back
		{"b8c6", 12*time.Second + 300*time.Millisecond, 3 * time.Minute},                             // 0.3 s, all back
		{"f1c4", 13 * time.Second, 3*time.Minute - 2*time.Second + lag - 700*time.Millisecond + lag}, // 0.7 s
	}
	for i, s := range steps {
		m, err := g.ParseMove(s.uci, chess.English)
		if err != nil {
			t.Fatal(err)
		}
		p := g.Position()
		if _, err := g.MoveWithLag(p.SideToMove(), m, i, at(s.at), lag); err != nil {
			t.Fatalf("MoveWithLag(%s) = %v", s.uci, err)
		}
		if got := g.Moves()[i].Clock; got != s.left {
			t.Errorf("after %s: mover's clock %v, want %v", s.uci, got, s.left)
		}
	}
	r, err := Restore(Saved{Options: Options{White: Human(1), Black: Human(2), Control: clock.MustParse("3+0")},
		Status: Active, StartedAt: t0, Moves: g.Moves()})
	if err != nil {
		t.Fatal(err)
	}
	now := at(20 * time.Second)
	if got, want := r.Clocks(now), g.Clocks(now); got != want {
		t.Errorf("restored clocks %+v, want %+v", got, want)
	}
}

// TestMoveWithLagAfterFlag: lag does not save a player whose time ran out
// before the move arrived.
func TestMoveWithLagAfterFlag(t *testing.T) {
	g := newGame(t, "1+0", "")
	play(t, g, 0, "e2e4", "e7e5", "g1f3", "b8c6") // a second apart
	m, err := g.ParseMove("f1c4", chess.English)
	if err != nil {
		t.Fatal(err)
	}
	// White used 1 s of its minute on Nf3; its clock runs again from 4 s.
	late := at(4*time.Second + 59*time.Second + 100*time.Millisecond)
	evs, err := g.MoveWithLag(chess.White, m, 4, late, 500*time.Millisecond)
	if !errors.Is(err, ErrGameOver) {
		t.Fatalf("MoveWithLag after the flag = %v, want ErrGameOver", err)
	}
	if o := g.Outcome(); o.Reason != Timeout {
		t.Errorf("outcome %+v (events %v), want a loss on time", o, evs)
	}
}
