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

// drawBot plays the first legal move after think (0: at once) and answers
// draw offers with accept, counting them.
type drawBot struct {
	think   time.Duration
	accept  bool
	answers *atomic.Int32
}

func (b drawBot) Move(ctx context.Context, p chess.Position, _ []uint64, _, _ time.Duration) (chess.Move, error) {
	if b.think > 0 {
		select {
		case <-time.After(b.think):
		case <-ctx.Done():
		}
	}
	m, _ := firstLegal(p)
	return m, nil
}

func (b drawBot) AnswerDraw(_ context.Context, _ chess.Position, _ []uint64, _ chess.Color) bool {
	b.answers.Add(1)
	return b.accept
}

// drawService runs games whose bots are b, at every table.
func drawService(b BotPlayer) *Service {
	f := func(game.Level) BotPlayer { return b }
	return New(Config{Store: newMemStore(), Bots: f, PublicBots: f, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// openWithBot plays 1. e4 and 2. d4 for the human, White, against the bot
// of game id, so that a draw may be offered.
func openWithBot(t *testing.T, s *Service, id, human int64) {
	t.Helper()
	for _, m := range []string{"e2e4", "d2d4"} {
		synctest.Wait()
		snap, err := s.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Move(context.Background(), id, human, m, chess.English, snap.Ply); err != nil {
			t.Fatalf("Move(%s) = %v", m, err)
		}
	}
}

// TestBotAnswersDrawInPractice: the computer answers a draw offer at once,
// by its judgement: accepting ends the game by agreement, declining lets
// play go on.
func TestBotAnswersDrawInPractice(t *testing.T) {
	for _, accept := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			var n atomic.Int32
			s := drawService(drawBot{accept: accept, answers: &n})
			defer s.Close()
			ctx := context.Background()
			id, err := s.CreatePracticeGame(ctx, 1, game.Medium, clock.Untimed, PlayWhite)
			if err != nil {
				t.Fatal(err)
			}
			openWithBot(t, s, id, 1)
			synctest.Wait()
			start := time.Now()
			if err := s.OfferDraw(ctx, id, 1); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			snap, _ := s.Game(ctx, id)
			if time.Since(start) != 0 || n.Load() != 1 {
				t.Errorf("accept %v: answered %d times after %v, want once at once", accept, n.Load(), time.Since(start))
			}
			switch {
			case accept && (snap.Status != game.Finished || snap.Outcome.Reason != game.Agreement || snap.Outcome.Result != game.Draw):
				t.Errorf("accepted: %v %v, want a draw by agreement", snap.Status, snap.Outcome)
			case !accept && (snap.Status != game.Active || snap.DrawOffer):
				t.Errorf("declined: %v, offer standing %v; want the game going on", snap.Status, snap.DrawOffer)
			}
		})
	}
}

// TestBotAnswersDrawAtPublicTable: at a public table the bot takes 1-3 s
// to answer, as a person would.
func TestBotAnswersDrawAtPublicTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var n atomic.Int32
		s := drawService(drawBot{accept: true, answers: &n})
		defer s.Close()
		ctx := context.Background()
		id, _, err := s.CreatePublicGame(ctx, Quick, game.Human(7), game.Bot(game.Medium), clock.MustParse("3+2"), 0)
		if err != nil {
			t.Fatal(err)
		}
		openWithBot(t, s, id, 7)
		synctest.Wait()
		if err := s.OfferDraw(ctx, id, 7); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second - time.Millisecond)
		synctest.Wait()
		if snap, _ := s.Game(ctx, id); snap.Status != game.Active || !snap.DrawOffer {
			t.Errorf("before 1 s: %v, offer standing %v; want no answer yet", snap.Status, snap.DrawOffer)
		}
		// publicDrawDelay is under 3 s: by 3 s the answer has come.
		time.Sleep(2*time.Second + time.Millisecond)
		synctest.Wait()
		if snap, _ := s.Game(ctx, id); snap.Status != game.Finished || snap.Outcome.Reason != game.Agreement {
			t.Errorf("after 3 s: %v %v, want a draw by agreement", snap.Status, snap.Outcome)
		}
	})
}

// TestBotAnswersDrawBeforeMoving: an offer made while the bot thinks is
// answered first (the bot does not move past it), and after a decline the
// bot thinks again and moves. A bot that cannot judge declines.
func TestBotAnswersDrawBeforeMoving(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := drawService(slowMover{think: 5 * time.Second})
		defer s.Close()
		ctx := context.Background()
		id, err := s.CreatePracticeGame(ctx, 1, game.Medium, clock.Untimed, PlayWhite)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Move(ctx, id, 1, "e2e4", chess.English, 0); err != nil {
			t.Fatal(err)
		}
		time.Sleep(6 * time.Second)
		if err := s.Move(ctx, id, 1, "d2d4", chess.English, 2); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // the bot thinks about 2. d4
		if err := s.OfferDraw(ctx, id, 1); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		snap, _ := s.Game(ctx, id)
		if snap.Status != game.Active || snap.DrawOffer || snap.Ply != 3 {
			t.Fatalf("after the offer: %v, offer standing %v, ply %d; want it declined at ply 3", snap.Status, snap.DrawOffer, snap.Ply)
		}
		time.Sleep(6 * time.Second)
		synctest.Wait()
		if snap, _ := s.Game(ctx, id); snap.Ply != 4 {
			t.Errorf("after the decline the bot is at ply %d, want 4", snap.Ply)
		}
	})
}

// slowMover thinks for think and cannot judge a draw offer.
type slowMover struct{ think time.Duration }

func (b slowMover) Move(ctx context.Context, p chess.Position, h []uint64, r, i time.Duration) (chess.Move, error) {
	return drawBot{think: b.think}.Move(ctx, p, h, r, i)
}
