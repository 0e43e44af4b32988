package play

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// countingBot plays the first legal move and counts its calls.
type countingBot struct{ calls *atomic.Int32 }

func (b countingBot) Move(ctx context.Context, pos chess.Position, _ []uint64, _, _ time.Duration) (chess.Move, error) {
	b.calls.Add(1)
	return firstMoveBot{}.Move(ctx, pos, nil, 0, 0)
}

// TestPublicTablesUseTheirBots: a bot seat at a public table is played by
// PublicBots (the human-paced players), one in a practice game by Bots.
func TestPublicTablesUseTheirBots(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var practice, public atomic.Int32
		s := New(Config{
			Store:      newMemStore(),
			Bots:       func(game.Level) BotPlayer { return countingBot{&practice} },
			PublicBots: func(game.Level) BotPlayer { return countingBot{&public} },
			Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		defer s.Close()
		ctx := context.Background()
		if _, _, err := s.CreatePublicGame(ctx, Quick, game.Bot(game.Medium), game.Human(7), clock.MustParse("3+2"), 0); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if _, err := s.CreatePracticeGame(ctx, 8, game.Easy, clock.MustParse("3+2"), PlayBlack); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if public.Load() != 1 || practice.Load() != 1 {
			t.Errorf("moves by public bots %d, by practice bots %d; want 1 and 1", public.Load(), practice.Load())
		}
	})
}
