package game

import (
	"errors"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
)

// TestClocksWaitForFirstMoves: neither clock runs before both sides have
// made their first move (SPEC section 4, as lichess): the first moves cost
// no time and earn no increment, and Black's first move starts White's
// clock.
func TestClocksWaitForFirstMoves(t *testing.T) {
	tests := []struct {
		name    string
		control string
		fen     string
		// at is when each move is played, from t0; the moves are e4 e5
		// Nf3 Nc6 (or, from fen, what moves says).
		at    []time.Duration
		moves []string
		// running is whether a clock runs after each move, and whose.
		running []bool
		side    []chess.Color
		// left is the mover's clock after each move (MoveRecord.Clock).
		left []time.Duration
	}{
		{
			name: "3+2", control: "3+2",
			at:      []time.Duration{20 * time.Second, 45 * time.Second, 50 * time.Second, 52 * time.Second},
			moves:   []string{"e2e4", "e7e5", "g1f3", "b8c6"},
			running: []bool{false, true, true, true},
			side:    []chess.Color{chess.White, chess.White, chess.Black, chess.White},
			// White's Nf3 is timed from Black's e5 (5 s), Black's Nc6
			// from Nf3 (2 s); each earns the increment.
			left: []time.Duration{3 * time.Minute, 3 * time.Minute, 3*time.Minute - 5*time.Second + 2*time.Second, 3*time.Minute - 2*time.Second + 2*time.Second},
		},
		{
			name: "1+0", control: "1+0",
			at:      []time.Duration{29 * time.Second, 58 * time.Second, 59 * time.Second},
			moves:   []string{"e2e4", "e7e5", "g1f3"},
			running: []bool{false, true, true},
			side:    []chess.Color{chess.White, chess.White, chess.Black},
			left:    []time.Duration{time.Minute, time.Minute, time.Minute - time.Second},
		},
		{
			name: "Black starts", control: "5+0", fen: "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1",
			at:      []time.Duration{10 * time.Second, 20 * time.Second, 23 * time.Second},
			moves:   []string{"e7e5", "e2e4", "e8d7"},
			running: []bool{false, true, true},
			side:    []chess.Color{chess.Black, chess.Black, chess.White},
			left:    []time.Duration{5 * time.Minute, 5 * time.Minute, 5*time.Minute - 3*time.Second},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, tc.control, tc.fen)
			if c := g.Clocks(at(time.Hour)); c.Running {
				t.Fatalf("Clocks() at the start = %+v, want none running", c)
			}
			for i, uci := range tc.moves {
				m, err := g.ParseMove(uci, chess.English)
				if err != nil {
					t.Fatal(err)
				}
				p := g.Position()
				evs, err := g.Move(p.SideToMove(), m, i, at(tc.at[i]))
				if err != nil {
					t.Fatalf("Move(%s) = %v", uci, err)
				}
				moved := evs[len(evs)-1].(Moved)
				if moved.Clocks.Running != tc.running[i] || (tc.running[i] && moved.Clocks.Side != tc.side[i]) {
					t.Errorf("after %s: Moved.Clocks = %+v, want running %v (%v)", uci, moved.Clocks, tc.running[i], tc.side[i])
				}
				if got := g.Moves()[i].Clock; got != tc.left[i] {
					t.Errorf("after %s: mover's clock %v, want %v", uci, got, tc.left[i])
				}
			}
			// Waiting before the clocks started cost nobody anything: the
			// side to move's clock runs from the last move only.
			last := tc.at[len(tc.at)-1]
			p := g.Position()
			side := p.SideToMove()
			c := g.Clocks(at(last + time.Second))
			before := g.Clocks(at(last))
			if c.Remaining(side) != before.Remaining(side)-time.Second || c.Remaining(side.Other()) != before.Remaining(side.Other()) {
				t.Errorf("a second later: %+v, from %+v", c, before)
			}
		})
	}
}

// TestFirstMoveDeadline: White must move within the first-move time from
// the start, Black within it from White's first move; a side that does not
// aborts the game at that moment, with no result. Untimed games have no
// such limit.
func TestFirstMoveDeadline(t *testing.T) {
	tests := []struct {
		name      string
		opts      Options
		moves     []string // played at 10 s, 20 s ...
		wantSide  chess.Color
		wantAfter time.Duration // the deadline, from t0
	}{
		{"white does not move", Options{Control: clock.MustParse("1+0")}, nil, chess.White, DefaultFirstMoveTime},
		{"black does not move", Options{Control: clock.MustParse("3+2")}, []string{"e2e4"}, chess.Black, 10*time.Second + DefaultFirstMoveTime},
		{"shorter first-move time", Options{Control: clock.MustParse("30+0"), FirstMoveTime: 3 * time.Second}, nil, chess.White, 3 * time.Second},
		{"black, shorter", Options{Control: clock.MustParse("5+0"), FirstMoveTime: 12 * time.Second}, []string{"d2d4"}, chess.Black, 22 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.White, tc.opts.Black = Human(1), Bot(Easy)
			g := New(tc.opts, t0)
			play10s(t, g, tc.moves...)
			want := at(tc.wantAfter)
			side, by, ok := g.FirstMoveDeadline()
			if !ok || side != tc.wantSide || !by.Equal(want) {
				t.Fatalf("FirstMoveDeadline() = %v, %v, %v; want %v, %v", side, by, ok, tc.wantSide, want)
			}
			if next, ok := g.NextDeadline(); !ok || !next.Equal(want) {
				t.Errorf("NextDeadline() = %v, %v; want %v", next, ok, want)
			}
			if evs := g.Tick(want.Add(-time.Millisecond)); len(evs) != 0 {
				t.Fatalf("Tick before the deadline = %v", evs)
			}
			// A move that comes too late is refused, and the game ends at
			// the deadline.
			var buf [chess.MaxMoves]chess.Move
			p := g.Position()
			evs, err := g.Move(tc.wantSide, p.AppendLegalMoves(buf[:0])[0], g.Ply(), want.Add(time.Second))
			if !errors.Is(err, ErrGameOver) {
				t.Fatalf("a move after the deadline = %v, want ErrGameOver", err)
			}
			wantOutcome := Outcome{Result: NoResult, Reason: NoFirstMove, Side: tc.wantSide}
			if o := lastEnded(t, evs); o != wantOutcome || !o.IsAborted() {
				t.Errorf("outcome %v, want %v", o, wantOutcome)
			}
			if g.Status() != Aborted || !g.EndedAt().Equal(want) || g.Ply() != len(tc.moves) {
				t.Errorf("status %v ended %v ply %d; want aborted at %v", g.Status(), g.EndedAt(), g.Ply(), want)
			}
			if _, _, ok := g.FirstMoveDeadline(); ok {
				t.Error("an aborted game still waits for a first move")
			}
			if c := g.Clocks(at(time.Hour)); c.Running || c.White != tc.opts.Control.Initial || c.Black != tc.opts.Control.Initial {
				t.Errorf("clocks after the abort: %+v, want both untouched", c)
			}
		})
	}

	t.Run("both moved in time", func(t *testing.T) {
		g := New(Options{White: Human(1), Black: Human(2), Control: clock.MustParse("1+0")}, t0)
		play10s(t, g, "e2e4", "e7e5")
		if side, by, ok := g.FirstMoveDeadline(); ok {
			t.Errorf("FirstMoveDeadline() = %v, %v after both first moves", side, by)
		}
		// Now only White's flag can end the game: a minute from e5.
		if next, ok := g.NextDeadline(); !ok || !next.Equal(at(20*time.Second+time.Minute)) {
			t.Errorf("NextDeadline() = %v, %v, want White's flag", next, ok)
		}
	})

	t.Run("untimed", func(t *testing.T) {
		g := New(Options{White: Human(1), Black: Bot(Hard)}, t0)
		if side, by, ok := g.FirstMoveDeadline(); ok {
			t.Errorf("FirstMoveDeadline() = %v, %v in an untimed game", side, by)
		}
		if next, ok := g.NextDeadline(); ok {
			t.Errorf("NextDeadline() = %v in an untimed game", next)
		}
		if evs := g.Tick(at(24 * time.Hour)); len(evs) != 0 || g.Status() != Active {
			t.Errorf("Tick a day later = %v, %v", evs, g.Status())
		}
		play10s(t, g, "e2e4")
		if _, _, ok := g.FirstMoveDeadline(); ok {
			t.Error("Black has a first-move deadline in an untimed game")
		}
	})

	t.Run("resign before moving still aborts", func(t *testing.T) {
		g := New(Options{White: Human(1), Black: Human(2), Control: clock.MustParse("3+0")}, t0)
		evs, err := g.Resign(chess.White, at(5*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		want := Outcome{Result: NoResult, Reason: Abort, Side: chess.White, Cause: Resignation}
		if o := lastEnded(t, evs); o != want {
			t.Errorf("outcome %v, want %v", o, want)
		}
	})

	t.Run("joined game", func(t *testing.T) {
		g := New(Options{Black: Human(1), Control: clock.MustParse("3+2"), FirstMoveTime: 20 * time.Second}, t0)
		if _, _, ok := g.FirstMoveDeadline(); ok {
			t.Error("a Waiting game has a first-move deadline")
		}
		if _, err := g.Join(Human(2), at(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if side, by, ok := g.FirstMoveDeadline(); !ok || side != chess.White || !by.Equal(at(time.Hour+20*time.Second)) {
			t.Errorf("FirstMoveDeadline() = %v, %v, %v; want White by the join + 20 s", side, by, ok)
		}
	})
}

// TestRestoreFirstMoveDeadline: a game read back from the store before
// both first moves keeps its deadline, counted from the stored start or
// first move; EnsureRemaining moves a deadline the downtime ate to at least
// the grace (never more than the first-move time); after both first moves
// the clock runs from the second.
func TestRestoreFirstMoveDeadline(t *testing.T) {
	g := New(Options{White: Human(1), Black: Human(2), Control: clock.MustParse("3+0")}, t0)
	play10s(t, g, "e2e4", "e7e5", "g1f3")
	all := g.Moves()
	tests := []struct {
		name     string
		moves    int
		wantSide chess.Color
		wantBy   time.Time
	}{
		{"no move", 0, chess.White, at(DefaultFirstMoveTime)},
		{"white moved", 1, chess.Black, at(10*time.Second + DefaultFirstMoveTime)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			saved := Saved{
				Options: Options{White: Human(1), Black: Human(2), Control: clock.MustParse("3+0")},
				Status:  Active, StartedAt: t0, Moves: all[:tc.moves],
			}
			r, err := Restore(saved)
			if err != nil {
				t.Fatal(err)
			}
			side, by, ok := r.FirstMoveDeadline()
			if !ok || side != tc.wantSide || !by.Equal(tc.wantBy) {
				t.Fatalf("restored FirstMoveDeadline() = %v, %v, %v; want %v, %v", side, by, ok, tc.wantSide, tc.wantBy)
			}
			if c := r.Clocks(at(time.Hour)); c.Running || c.White != 3*time.Minute || c.Black != 3*time.Minute {
				t.Errorf("restored clocks %+v, want both stopped at 3:00", c)
			}
			// Restarted in time, with more than the grace left: unchanged.
			if r.EnsureRemaining(15*time.Second, tc.wantBy.Add(-20*time.Second)) {
				t.Error("EnsureRemaining moved a deadline 20 s away")
			}
			// The downtime ate the deadline: 15 s from the restart.
			late := tc.wantBy.Add(time.Minute)
			if !r.EnsureRemaining(15*time.Second, late) {
				t.Error("EnsureRemaining did nothing")
			}
			if _, by, _ := r.FirstMoveDeadline(); !by.Equal(late.Add(15 * time.Second)) {
				t.Errorf("deadline after the grace %v, want %v", by, late.Add(15*time.Second))
			}
			evs := r.Tick(late.Add(15 * time.Second))
			if o := lastEnded(t, evs); o.Reason != NoFirstMove || o.Side != tc.wantSide {
				t.Errorf("outcome %v, want no first move by %v", o, tc.wantSide)
			}

			// A grace longer than the first-move time gives that time.
			short := saved
			short.FirstMoveTime = 3 * time.Second
			s, err := Restore(short)
			if err != nil {
				t.Fatal(err)
			}
			s.EnsureRemaining(15*time.Second, late)
			if _, by, _ := s.FirstMoveDeadline(); !by.Equal(late.Add(3 * time.Second)) {
				t.Errorf("deadline with a 3 s first-move time %v, want %v", by, late.Add(3*time.Second))
			}
		})
	}

	t.Run("both moved", func(t *testing.T) {
		r, err := Restore(Saved{
			Options: Options{White: Human(1), Black: Human(2), Control: clock.MustParse("3+0")},
			Status:  Active, StartedAt: t0, Moves: all[:2],
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := r.FirstMoveDeadline(); ok {
			t.Error("restored game after both first moves has a first-move deadline")
		}
		// White's clock runs from e5, at 20 s.
		if c := r.Clocks(at(50 * time.Second)); !c.Running || c.Side != chess.White || c.White != 3*time.Minute-30*time.Second {
			t.Errorf("restored clocks %+v, want White's running since e5", c)
		}
		if a, b := g.Clocks(at(25*time.Second)), r.Clocks(at(25*time.Second)); a.Black != b.Black {
			t.Errorf("Black's clock %v, want %v as before the restart", b.Black, a.Black)
		}
	})

	t.Run("aborted", func(t *testing.T) {
		o := Outcome{Result: NoResult, Reason: NoFirstMove, Side: chess.Black}
		r, err := Restore(Saved{
			Options: Options{White: Human(1), Black: Human(2), Control: clock.MustParse("3+0")},
			Status:  Aborted, StartedAt: t0, Moves: all[:1], Outcome: o, EndedAt: at(40 * time.Second),
		})
		if err != nil || r.Outcome() != o || r.Status() != Aborted {
			t.Fatalf("Restore(aborted) = %v, %v", r, err)
		}
		if _, _, ok := r.FirstMoveDeadline(); ok {
			t.Error("an aborted game has a first-move deadline")
		}
	})
}

// play10s plays the UCI moves ten seconds apart, the first at t0 + 10 s.
func play10s(t *testing.T, g *Game, moves ...string) {
	t.Helper()
	for i, uci := range moves {
		m, err := g.ParseMove(uci, chess.English)
		if err != nil {
			t.Fatal(err)
		}
		p := g.Position()
		if _, err := g.Move(p.SideToMove(), m, g.Ply(), at(time.Duration(i+1)*10*time.Second)); err != nil {
			t.Fatalf("Move(%s) = %v", uci, err)
		}
	}
}
