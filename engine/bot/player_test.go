package bot

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chess"
)

func TestParseLevel(t *testing.T) {
	for l := Easy; l <= Max; l++ {
		got, err := ParseLevel(l.String())
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v, want %v", l.String(), got, err, l)
		}
	}
	if _, err := ParseLevel("grandmaster"); !errors.Is(err, ErrUnknownLevel) {
		t.Errorf("ParseLevel(grandmaster) error = %v, want ErrUnknownLevel", err)
	}
	if Easy.Rating() != 800 || Medium.Rating() != 1300 || Hard.Rating() != 1700 {
		t.Errorf("ratings = %d %d %d, want 800 1300 1700", Easy.Rating(), Medium.Rating(), Hard.Rating())
	}
}

// TestBotDeterministic checks that the same position and seed give the
// same move at every level below Max, and that seeds make a difference.
func TestBotDeterministic(t *testing.T) {
	positions := randomPositions(12, 11)
	if raceEnabled {
		positions = positions[:3]
	}
	for l := Easy; l <= Hard; l++ {
		t.Run(l.String(), func(t *testing.T) {
			a, b := New(l, 42), New(l, 42)
			differ := 0
			for _, p := range positions {
				ma, err := a.Move(context.Background(), p, nil, Clock{})
				if err != nil {
					if errors.Is(err, ErrNoMove) && len(p.LegalMoves()) == 0 {
						continue
					}
					t.Fatal(err)
				}
				mb, _ := b.Move(context.Background(), p, nil, Clock{})
				if ma != mb {
					t.Errorf("%s: seed 42 played %s then %s in %s", l, ma, mb, p.FEN())
				}
				b.NewGame(43)
				mc, _ := b.Move(context.Background(), p, nil, Clock{})
				b.NewGame(42)
				if mc != ma {
					differ++
				}
				if !isLegal(p, ma) {
					t.Fatalf("%s played illegal %s in %s", l, ma, p.FEN())
				}
			}
			if l == Easy && differ == 0 {
				t.Errorf("easy played the same moves with seeds 42 and 43 in %d positions", len(positions))
			}
		})
	}
}

// TestLevelsNoQueenBlunder checks that even Easy takes a hanging queen and
// does not leave its own queen en prise.
func TestLevelsNoQueenBlunder(t *testing.T) {
	take := mustFEN(t, "r3k3/ppp5/8/3q4/8/8/PPPR4/4K3 w - - 0 1")
	for l := Easy; l <= Max; l++ {
		for seed := range uint64(8) {
			m := New(l, seed).Think(context.Background(), take, nil, Limits{Depth: 6}, nil).Move
			if m.String() != "d2d5" {
				t.Errorf("%s seed %d: Move = %s, want d2d5 taking the queen", l, seed, m)
			}
		}
	}
}

func TestBotNoMove(t *testing.T) {
	mated := mustFEN(t, "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1")
	if _, err := New(Medium, 1).Move(context.Background(), mated, nil, Clock{}); !errors.Is(err, ErrNoMove) {
		t.Errorf("Move(checkmated) error = %v, want ErrNoMove", err)
	}
}

func TestBudget(t *testing.T) {
	tests := []struct {
		name string
		c    Clock
	}{
		{"10+0.1 start", Clock{Remaining: 10 * time.Second, Increment: 100 * time.Millisecond}},
		{"3+2", Clock{Remaining: 3 * time.Minute, Increment: 2 * time.Second}},
		{"low", Clock{Remaining: 200 * time.Millisecond, Increment: 100 * time.Millisecond}},
		{"very low", Clock{Remaining: 10 * time.Millisecond}},
		{"last move before control", Clock{Remaining: 5 * time.Second, MovesToGo: 1}},
	}
	for _, tc := range tests {
		soft, hard := Budget(tc.c)
		if soft <= 0 || hard < soft {
			t.Errorf("Budget(%s) = %v, %v, want 0 < soft <= hard", tc.name, soft, hard)
		}
		if hard > tc.c.Remaining*4/5 && tc.c.Remaining > 50*time.Millisecond {
			t.Errorf("Budget(%s) hard = %v, more than 4/5 of %v", tc.name, hard, tc.c.Remaining)
		}
	}
	if soft, hard := Budget(Clock{}); soft != 0 || hard != 0 {
		t.Errorf("Budget(untimed) = %v, %v, want 0, 0", soft, hard)
	}
}

func TestPaceDelay(t *testing.T) {
	c := Clock{Remaining: 3 * time.Minute, Increment: 2 * time.Second}
	for r := range uint64(200) {
		d := BlitzPace.Delay(c, 20, splitmix(r))
		if d < BlitzPace.Min || d > BlitzPace.Max {
			t.Fatalf("Delay(3+2) = %v, want within %v..%v", d, BlitzPace.Min, BlitzPace.Max)
		}
	}
	low := Clock{Remaining: 4 * time.Second}
	if d := BlitzPace.Delay(low, 40, splitmix(1)); d > low.Remaining/20 {
		t.Errorf("Delay(4s left) = %v, want at most %v", d, low.Remaining/20)
	}
	if d := (Pace{}).Delay(c, 20, 1); d != 0 {
		t.Errorf("zero Pace Delay = %v, want 0", d)
	}
}

func TestPoolLimitsConcurrency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pool := NewPool(2)
		active, peak, reported := 0, 0, 0
		var mu = make(chan struct{}, 1)
		slow := playerFunc(func(ctx context.Context, p chess.Position, _ []uint64, _ Clock) (chess.Move, error) {
			mu <- struct{}{}
			active++
			peak = max(peak, active)
			reported = max(reported, pool.Stats().Running)
			<-mu
			time.Sleep(time.Second)
			mu <- struct{}{}
			active--
			<-mu
			return p.LegalMoves()[0], nil
		})
		pl := pool.Player(slow)
		done := make(chan struct{})
		for range 5 {
			go func() {
				defer func() { done <- struct{}{} }()
				if _, err := pl.Move(context.Background(), chess.StartPosition(), nil, Clock{}); err != nil {
					t.Error(err)
				}
			}()
		}
		for range 5 {
			<-done
		}
		if peak != 2 {
			t.Errorf("peak concurrency = %d, want 2", peak)
		}
		if reported != 2 {
			t.Errorf("peak of Stats' running searches = %d, want 2", reported)
		}
		// Five searches of a second, two at a time: two waited no time,
		// two a second, one two seconds.
		want := PoolStats{Running: 0, Done: 5, Waited: 4 * time.Second, Searched: 5 * time.Second}
		if got := pool.Stats(); got != want {
			t.Errorf("Stats after the searches = %+v, want %+v", got, want)
		}
	})
}

func TestPacedWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := New(Easy, 1)
		pl := Paced(b, Pace{Min: 2 * time.Second, Max: 3 * time.Second}, 9)
		start := time.Now()
		m, err := pl.Move(context.Background(), chess.StartPosition(), nil, Clock{Remaining: 5 * time.Minute})
		if err != nil || !isLegal(chess.StartPosition(), m) {
			t.Fatalf("Paced Move = %s, %v", m, err)
		}
		if d := time.Since(start); d < 2*time.Second || d > 3*time.Second {
			t.Errorf("Paced Move took %v, want 2s..3s", d)
		}
		// Cancelling ends the wait at once, still with a legal move.
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start = time.Now()
		m, err = pl.Move(ctx, chess.StartPosition(), nil, Clock{Remaining: 5 * time.Minute})
		if err != nil || !isLegal(chess.StartPosition(), m) {
			t.Fatalf("Paced Move = %s, %v", m, err)
		}
		if d := time.Since(start); d > 200*time.Millisecond {
			t.Errorf("cancelled Paced Move took %v", d)
		}
	})
}

type playerFunc func(ctx context.Context, p chess.Position, history []uint64, c Clock) (chess.Move, error)

func (f playerFunc) Move(ctx context.Context, p chess.Position, history []uint64, c Clock) (chess.Move, error) {
	return f(ctx, p, history, c)
}
