package bot

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chess"
)

// meanDelay is MoveDelay's mean over 100 random values.
func meanDelay(pc Pace, p chess.Position, m chess.Move, c Clock) time.Duration {
	var sum time.Duration
	for r := range uint64(100) {
		sum += pc.MoveDelay(&p, m, c, splitmix(r))
	}
	return sum / 100
}

func uci(t *testing.T, p chess.Position, s string) chess.Move {
	t.Helper()
	m, err := p.ParseUCI(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMoveDelay: a forced move, a book move and a recapture come quickly,
// a move in a complex middlegame takes longer; every delay stays within
// the pace's bounds and a sane share of the clock.
func TestMoveDelay(t *testing.T) {
	forced := mustFEN(t, "7k/8/8/8/8/8/6q1/7K w - - 0 40") // Kxg2 only
	start := chess.StartPosition()
	exch := mustFEN(t, "r2qkb1r/ppp2ppp/2n5/3pp3/3P2b1/2N1PN2/PPP2PPP/R1BQKB1R w KQkq - 0 6")
	middle := mustFEN(t, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8")
	// A recapture: White's knight took on d5 and Black's took it back;
	// White, a knight down, takes back.
	retake := mustFEN(t, "r1bqkb1r/pppp1ppp/2n5/3np3/4P3/5N2/PPPP1PPP/R1BQKB1R w KQkq - 0 5")
	for _, pc := range []Pace{BlitzPace, PracticePace(Easy), PracticePace(Medium), PracticePace(Hard)} {
		for _, c := range []Clock{{}, {Remaining: 3 * time.Minute, Increment: 2 * time.Second}, {Remaining: 10 * time.Minute}} {
			quick := []time.Duration{
				meanDelay(pc, forced, uci(t, forced, "h1g2"), c),
				meanDelay(pc, start, uci(t, start, "e2e4"), c),
				meanDelay(pc, retake, uci(t, retake, "e4d5"), c),
			}
			slow := meanDelay(pc, middle, uci(t, middle, "f1d3"), c)
			for i, q := range quick {
				if q >= slow {
					t.Errorf("%+v, clock %+v: quick move %d takes %v, the middlegame move %v", pc, c, i, q, slow)
				}
			}
			for r := range uint64(50) {
				for _, p := range []chess.Position{forced, start, exch, middle} {
					m := p.LegalMoves()[0]
					d := pc.MoveDelay(&p, m, c, splitmix(r))
					hi := pc.Max
					if c.Remaining > 0 {
						hi = min(hi, c.Remaining/20)
					} else {
						hi = min(hi, 2*time.Second)
					}
					if d < pc.Min || d > hi {
						t.Fatalf("%+v, clock %+v: MoveDelay = %v, want %v..%v", pc, c, d, pc.Min, hi)
					}
				}
			}
		}
	}
	if !isRecapture(&retake, uci(t, retake, "e4d5")) || isRecapture(&middle, uci(t, middle, "c4d5")) {
		t.Error("isRecapture: wrong")
	}
	// Weaker players move faster.
	c := Clock{Remaining: 10 * time.Minute}
	if e, h := meanDelay(PracticePace(Easy), middle, uci(t, middle, "f1d3"), c), meanDelay(PracticePace(Hard), middle, uci(t, middle, "f1d3"), c); e >= h {
		t.Errorf("Easy thinks %v, Hard %v: want Easy quicker", e, h)
	}
	if d := (Pace{}).MoveDelay(&middle, uci(t, middle, "f1d3"), c, 1); d != 0 {
		t.Errorf("zero Pace MoveDelay = %v, want 0", d)
	}
}

// TestPracticePaced: a practice bot in an untimed game answers within
// 0.3 to 2 s, at once for nobody; the zero Pace answers at once.
func TestPracticePaced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		middle := mustFEN(t, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8")
		for l := Easy; l <= Hard; l++ {
			pl := Paced(New(l, 3), PracticePace(l), 3)
			start := time.Now()
			if _, err := pl.Move(context.Background(), middle, nil, Clock{}); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < 300*time.Millisecond || d > 2*time.Second {
				t.Errorf("%s untimed: answered after %v, want 0.3..2 s", l, d)
			}
		}
		start := time.Now()
		if _, err := Paced(New(Easy, 3), Pace{}, 3).Move(context.Background(), middle, nil, Clock{}); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("zero Pace: answered after %v, want at once", d)
		}
	})
}

// TestTablePace: at a public table, over a game of 60 moves at 3+2 and at
// 5+0 (each move's time drawn as Delay draws it), every level stays on the
// clock, the weaker level spends less of it, and each move takes within
// the pace's bounds.
func TestTablePace(t *testing.T) {
	for _, tc := range []struct{ start, inc time.Duration }{{3 * time.Minute, 2 * time.Second}, {5 * time.Minute, 0}} {
		var spent [Max + 1]time.Duration
		for l := Easy; l <= Hard; l++ {
			pc := TablePace(l)
			left := tc.start
			for move := 1; move <= 60; move++ {
				d := pc.Delay(Clock{Remaining: left, Increment: tc.inc}, move, splitmix(uint64(move)))
				if d < min(pc.Min, left/20) || d > pc.Max {
					t.Fatalf("%s %v+%v move %d: %v, want within %v..%v", l, tc.start, tc.inc, move, d, pc.Min, pc.Max)
				}
				left += tc.inc - d
				spent[l] += d
			}
			if left <= 0 {
				t.Errorf("%s %v+%v: flagged within 60 moves", l, tc.start, tc.inc)
			}
			t.Logf("%s %v+%v: 60 moves in %v (%.0f%% of the time given), %v left",
				l, tc.start, tc.inc, spent[l].Round(time.Second), 100*spent[l].Seconds()/(tc.start+60*tc.inc).Seconds(), left.Round(time.Second))
		}
		if !(spent[Easy] < spent[Medium] && spent[Medium] < spent[Hard]) {
			t.Errorf("%v+%v: time spent %v, %v, %v; want Easy < Medium < Hard", tc.start, tc.inc, spent[Easy], spent[Medium], spent[Hard])
		}
	}
}
