package clock

import (
	"testing"
	"time"

	"satranc/engine/chess"
)

const ms = time.Millisecond

func TestLagCredit(t *testing.T) {
	tests := []struct {
		name                string
		lag, elapsed, spent time.Duration
		credit, spentAfter  time.Duration
	}{
		{"no lag refills", 0, 2 * time.Second, 600 * ms, 0, 350 * ms},
		{"no lag, full allowance", 0, time.Second, 0, 0, 0},
		{"small lag given back whole", 80 * ms, time.Second, 0, 80 * ms, 0},
		{"lag capped per move", 600 * ms, 2 * time.Second, 0, LagPerMove, 250 * ms},
		{"capped by the allowance left", 600 * ms, 2 * time.Second, 1800 * ms, 200 * ms, 1750 * ms},
		{"allowance used up", 600 * ms, 2 * time.Second, LagQuota, 0, 1750 * ms},
		{"never more than the move cost", 600 * ms, 150 * ms, 0, 150 * ms, 0},
		{"a move that cost nothing", 300 * ms, 0, 0, 0, 0},
		{"negative lag", -300 * ms, time.Second, 500 * ms, 0, 250 * ms},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			credit, spent := LagCredit(tc.lag, tc.elapsed, tc.spent)
			if credit != tc.credit || spent != tc.spentAfter {
				t.Errorf("LagCredit(%v, %v, %v) = %v, %v, want %v, %v", tc.lag, tc.elapsed, tc.spent, credit, spent, tc.credit, tc.spentAfter)
			}
		})
	}
}

// TestLagCreditOverAGame: a player whose every move has 600 ms of lag
// gets LagPerMove back on the first moves, then LagRefill a move once
// the allowance is used up; over any stretch of moves, never more than
// LagQuota plus LagRefill a move.
func TestLagCreditOverAGame(t *testing.T) {
	var spent, total time.Duration
	var got []time.Duration
	for move := 1; move <= 40; move++ {
		var credit time.Duration
		credit, spent = LagCredit(600*ms, 3*time.Second, spent)
		got = append(got, credit)
		total += credit
		if limit := LagQuota + time.Duration(move-1)*LagRefill; total > limit {
			t.Fatalf("after %d moves %v given back, more than %v", move, total, limit)
		}
	}
	for i, want := range []time.Duration{500 * ms, 500 * ms, 500 * ms, 500 * ms, 500 * ms, 500 * ms, 500 * ms, 250 * ms} {
		if got[i] != want {
			t.Errorf("move %d: %v given back, want %v (all: %v)", i+1, got[i], want, got)
		}
	}
	if last := got[len(got)-1]; last != LagRefill {
		t.Errorf("move 40: %v given back, want the refill %v", last, LagRefill)
	}
}

func TestPressLag(t *testing.T) {
	tests := []struct {
		name    string
		control Control
		think   time.Duration // time the move cost
		lag     time.Duration
		left    time.Duration // the mover's clock after the move
		credit  time.Duration
	}{
		{"no lag", MustParse("3+0"), 2 * time.Second, 0, 178 * time.Second, 0},
		{"lag given back", MustParse("3+0"), 2 * time.Second, 300 * ms, 178*time.Second + 300*ms, 300 * ms},
		{"capped per move", MustParse("3+0"), 2 * time.Second, 900 * ms, 178*time.Second + LagPerMove, LagPerMove},
		{"increment on top", MustParse("3+2"), 2 * time.Second, 300 * ms, 180*time.Second + 300*ms, 300 * ms},
		{"never above the clock before the move", MustParse("3+0"), 100 * ms, 400 * ms, 180 * time.Second, 100 * ms},
		{"never above it plus the increment", MustParse("3+2"), 100 * ms, 400 * ms, 182 * time.Second, 100 * ms},
		{"untimed", Untimed, 2 * time.Second, 300 * ms, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := New(tc.control)
			c.Start(chess.White, at(0))
			left, credit := c.PressLag(at(tc.think), tc.lag)
			if left != tc.left || credit != tc.credit {
				t.Errorf("PressLag after %v with lag %v = %v, %v, want %v, %v", tc.think, tc.lag, left, credit, tc.left, tc.credit)
			}
			if side, running := c.Running(); !running || side != chess.Black {
				t.Errorf("after PressLag: running %v %v, want Black's clock", side, running)
			}
		})
	}
}

// TestPressLagAllowancePerSide: each side has its own allowance, and a
// stopped clock gives nothing back.
func TestPressLagAllowancePerSide(t *testing.T) {
	c := New(MustParse("5+0"))
	if left, credit := c.PressLag(at(0), time.Second); left != 0 || credit != 0 {
		t.Fatalf("PressLag on a stopped clock = %v, %v, want 0, 0", left, credit)
	}
	c.Start(chess.White, at(0))
	now := time.Duration(0)
	var white time.Duration
	for range 8 { // White uses up its allowance
		now += time.Second
		_, credit := c.PressLag(at(now), time.Second)
		white += credit
		now += time.Second
		c.Press(at(now)) // Black, without lag
	}
	if want := 7*LagPerMove + LagRefill; white != want {
		t.Errorf("White got %v back over 8 moves, want %v", white, want)
	}
	now += time.Second
	c.Press(at(now)) // White
	now += time.Second
	if _, credit := c.PressLag(at(now), time.Second); credit != LagPerMove {
		t.Errorf("Black's first lagged move got %v back, want %v: its allowance is its own", credit, LagPerMove)
	}
}

func TestLagEstimator(t *testing.T) {
	var e LagEstimator
	if got := e.Estimate(at(0)); got != 0 {
		t.Fatalf("Estimate with no samples = %v, want 0", got)
	}
	steps := []struct {
		rtt  time.Duration
		at   time.Duration // when measured
		want time.Duration // the estimate just after
	}{
		{600 * ms, 0, 600 * ms},
		{620 * ms, 3 * time.Second, 600 * ms},                  // lower middle of two
		{3 * time.Second, 6 * time.Second, 620 * ms},           // one slow echo does not count
		{610 * ms, 9 * time.Second, 610 * ms},                  // 600 610 620 3000
		{590 * ms, 12 * time.Second, 610 * ms},                 // 590 600 610 620 3000
		{-5 * ms, 13 * time.Second, 610 * ms},                  // ignored
		{50 * ms, 15 * time.Second, 610 * ms},                  // the first (600) drops out: 50 590 610 620 3000
		{40 * ms, 18 * time.Second, 590 * ms},                  // 40 50 590 610 3000
		{45 * ms, 21 * time.Second, 50 * ms},                   // 40 45 50 590 610: the line got faster
		{45 * ms, 21*time.Second + LagSampleAge + ms, 45 * ms}, // the others are too old
	}
	for i, s := range steps {
		e.Add(s.rtt, at(s.at))
		if got := e.Estimate(at(s.at)); got != s.want {
			t.Errorf("step %d: after %v at %v, Estimate = %v, want %v", i, s.rtt, s.at, got, s.want)
		}
	}
	if got := e.Estimate(at(time.Hour)); got != 0 {
		t.Errorf("Estimate an hour later = %v, want 0 (no fresh sample)", got)
	}
}
