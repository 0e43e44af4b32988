package play

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// TestFirstMoveTimer: the writer's timer fires at the first-move deadline
// (30 s by default): from the start for White, from White's first move for
// Black. The game is aborted, stored and published as such.
func TestFirstMoveTimer(t *testing.T) {
	tests := []struct {
		name  string
		moves []string // played one second apart
		side  chess.Color
		after time.Duration // the deadline, from the start
	}{
		{"white", nil, chess.White, game.DefaultFirstMoveTime},
		{"black", []string{"e4"}, chess.Black, time.Second + game.DefaultFirstMoveTime},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				st := newMemStore()
				s := newService(st)
				defer s.Close()
				ctx := context.Background()
				start := time.Now()
				id, w, b := privateGame(t, s, "1+0")
				mustMove(t, s, id, w, b, tc.moves...)
				snap, _ := s.Game(ctx, id)
				if want := start.Add(tc.after); !snap.FirstMoveBy.Equal(want) || snap.Clocks.Running {
					t.Fatalf("FirstMoveBy %v, clocks %+v; want %v and no clock running", snap.FirstMoveBy, snap.Clocks, want)
				}
				sub := s.Subscribe(id)
				defer sub.Close()
				time.Sleep(time.Until(start.Add(tc.after)) - time.Millisecond)
				synctest.Wait()
				if rec, _ := st.Game(ctx, id); rec.Status.Over() {
					t.Fatalf("ended before the deadline: %v", rec.Outcome)
				}
				time.Sleep(time.Millisecond)
				synctest.Wait()
				rec, _ := st.Game(ctx, id)
				want := game.Outcome{Result: game.NoResult, Reason: game.NoFirstMove, Side: tc.side}
				if rec.Status != game.Aborted || rec.Outcome != want || !rec.EndedAt.Equal(start.Add(tc.after)) {
					t.Fatalf("after the deadline: %v %v at %v, want aborted, %v", rec.Status, rec.Outcome, rec.EndedAt, want)
				}
				e := <-sub.C()
				if ended, ok := e.Payload.(game.Ended); !ok || ended.Outcome != want {
					t.Errorf("published %#v, want Ended %v", e.Payload, want)
				}
			})
		})
	}
}

// TestFirstMoveAfterRestart: a game reopened before both first moves keeps
// the deadline it had, rebuilt from the stored first move; when the
// downtime ate it, the side to move gets the restart grace instead.
func TestFirstMoveAfterRestart(t *testing.T) {
	tests := []struct {
		name     string
		downtime time.Duration
		// deadline returns when Black must move after the restart, given
		// White's move and the restart.
		deadline func(e4, restart time.Time) time.Time
	}{
		{"in time", 10 * time.Second, func(e4, _ time.Time) time.Time { return e4.Add(game.DefaultFirstMoveTime) }},
		{"downtime ate it", time.Minute, func(_, restart time.Time) time.Time { return restart.Add(DefaultRestartGrace) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				st := newMemStore()
				s := newService(st)
				ctx := context.Background()
				id, w, b := privateGame(t, s, "3+2")
				mustMove(t, s, id, w, b, "e4")
				e4 := time.Now()
				s.Close()

				time.Sleep(tc.downtime)
				restart := time.Now()
				s2 := newService(st)
				defer s2.Close()
				if n, err := s2.Recover(ctx); err != nil || n != 1 {
					t.Fatalf("Recover() = %d, %v", n, err)
				}
				want := tc.deadline(e4, restart)
				snap, _ := s2.Game(ctx, id)
				if !snap.FirstMoveBy.Equal(want) || snap.Clocks.Running {
					t.Fatalf("after the restart: FirstMoveBy %v, clocks %+v; want %v, no clock running", snap.FirstMoveBy, snap.Clocks, want)
				}
				time.Sleep(time.Until(want) - time.Millisecond)
				synctest.Wait()
				if rec, _ := st.Game(ctx, id); rec.Status.Over() {
					t.Fatalf("ended before the deadline: %v", rec.Outcome)
				}
				time.Sleep(time.Millisecond)
				synctest.Wait()
				rec, _ := st.Game(ctx, id)
				if rec.Status != game.Aborted || rec.Outcome.Reason != game.NoFirstMove || rec.Outcome.Side != chess.Black {
					t.Errorf("after the deadline: %v %v, want aborted: no first move by Black", rec.Status, rec.Outcome)
				}
			})
		})
	}
}

// recordingBot plays the first legal move and records the time it was
// told it has.
type recordingBot struct {
	mu   *sync.Mutex
	told *[]time.Duration
}

func (b recordingBot) Move(ctx context.Context, pos chess.Position, _ []uint64, remaining, _ time.Duration) (chess.Move, error) {
	b.mu.Lock()
	*b.told = append(*b.told, remaining)
	b.mu.Unlock()
	return firstMoveBot{}.Move(ctx, pos, nil, 0, 0)
}

// TestBotsMakeTheirFirstMove: a computer player, in a practice game or at
// a public table, makes its first move like any other, told to make it
// within what is left of its first-move time (not its whole clock), so
// that the game is never aborted on its account; its clock then runs as
// usual.
func TestBotsMakeTheirFirstMove(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var told []time.Duration
		bots := func(game.Level) BotPlayer { return recordingBot{&mu, &told} }
		st := newMemStore()
		s := New(Config{Store: st, Bots: bots, PublicBots: bots, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		defer s.Close()
		ctx := context.Background()

		// Practice: the bot has White and moves first.
		practice, err := s.CreatePracticeGame(ctx, 7, game.Medium, clock.MustParse("30+0"), PlayBlack)
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		snap, _ := s.Game(ctx, practice)
		if snap.Ply != 1 || snap.FirstMoveBy.IsZero() {
			t.Fatalf("practice game after the bot's move: ply %d, Black's deadline %v", snap.Ply, snap.FirstMoveBy)
		}

		// Quick Play: the bot has Black and answers the human's first move.
		quick, _, err := s.CreatePublicGame(ctx, Quick, game.Human(8), game.Bot(game.Hard), clock.MustParse("1+0"), 0)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Second)
		if err := s.Move(ctx, quick, 8, "e4", chess.English, 0); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		snap, _ = s.Game(ctx, quick)
		if snap.Ply != 2 || snap.Status != game.Active || !snap.FirstMoveBy.IsZero() || !snap.Clocks.Running || snap.Clocks.Side != chess.White {
			t.Fatalf("quick game after the bot's first move: ply %d, %v, deadline %v, clocks %+v; want White's clock running",
				snap.Ply, snap.Status, snap.FirstMoveBy, snap.Clocks)
		}
		if snap.Clocks.Black != time.Minute {
			t.Errorf("the bot's first move cost it %v", time.Minute-snap.Clocks.Black)
		}

		mu.Lock()
		defer mu.Unlock()
		want := []time.Duration{game.DefaultFirstMoveTime, game.DefaultFirstMoveTime}
		if len(told) != len(want) || told[0] != want[0] || told[1] != want[1] {
			t.Errorf("bots were told %v for their first moves, want %v", told, want)
		}
	})
}
