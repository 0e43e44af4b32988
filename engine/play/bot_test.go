package play

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// failingBot always fails.
type failingBot struct{}

func (failingBot) Move(context.Context, chess.Position, []uint64, time.Duration, time.Duration) (chess.Move, error) {
	return chess.NullMove, errors.New("broken bot")
}

// slowBot thinks until it is cancelled, then answers with a legal move.
type slowBot struct{ cancelled chan struct{} }

func (b slowBot) Move(ctx context.Context, p chess.Position, _ []uint64, _, _ time.Duration) (chess.Move, error) {
	<-ctx.Done()
	close(b.cancelled)
	m, _ := firstLegal(p)
	return m, nil
}

func TestBrokenBotStillMoves(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Config{Store: newMemStore(), Bots: func(game.Level) BotPlayer { return failingBot{} },
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		defer s.Close()
		ctx := context.Background()
		id, err := s.CreatePracticeGame(ctx, 1, game.Hard, clock.Untimed, PlayBlack)
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if snap, _ := s.Game(ctx, id); snap.Ply != 1 || snap.Clocks.Timed {
			t.Errorf("after the bot's turn: ply %d, timed %v", snap.Ply, snap.Clocks.Timed)
		}
	})
}

func TestBotCancelledWhenGameEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := slowBot{cancelled: make(chan struct{})}
		s := New(Config{Store: newMemStore(), Bots: func(game.Level) BotPlayer { return b },
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		defer s.Close()
		ctx := context.Background()
		id, err := s.CreatePracticeGame(ctx, 1, game.Easy, clock.MustParse("1+0"), PlayBlack)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Leave(ctx, id, 1); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		select {
		case <-b.cancelled:
		default:
			t.Fatal("the bot still thinks after the game ended")
		}
		if snap, _ := s.Game(ctx, id); snap.Status != game.Aborted || snap.Ply != 0 {
			t.Errorf("after leaving: %v at ply %d", snap.Status, snap.Ply)
		}
		if _, err := s.CreatePracticeGame(ctx, 1, game.NoBot, clock.Untimed, PlayWhite); !errors.Is(err, ErrInvalid) {
			t.Errorf("no level = %v, want ErrInvalid", err)
		}
		if _, err := s.CreatePracticeGame(ctx, 1, game.Easy, clock.MustParse("2+1"), PlayWhite); !errors.Is(err, ErrInvalid) {
			t.Errorf("2+1 = %v, want ErrInvalid", err)
		}
	})
}
