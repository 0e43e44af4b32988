package play

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"testing/synctest"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// TestBotConcedesInPlay: at its turn a bot that gives up resigns instead
// of moving, and one that offers a draw does so with its move.
func TestBotConcedesInPlay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Config{Store: newMemStore(), Bots: func(game.Level) BotPlayer { return concedingBot{from: 3, resign: true} },
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		defer s.Close()
		ctx := context.Background()
		id, err := s.CreatePracticeGame(ctx, 1, game.Hard, clock.Untimed, PlayWhite)
		if err != nil {
			t.Fatal(err)
		}
		openWithBot(t, s, id, 1)
		synctest.Wait()
		if snap, _ := s.Game(ctx, id); snap.Ply != 4 || snap.Status != game.Active {
			t.Fatalf("before move 3: ply %d, %v", snap.Ply, snap.Status)
		}
		synctest.Wait()
		snap, _ := s.Game(ctx, id)
		if snap.Status != game.Active {
			t.Fatalf("resigned before the human's third move: %+v", snap.Outcome)
		}
		if err := s.Move(ctx, id, 1, "g1f3", chess.English, 4); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		snap, _ = s.Game(ctx, id)
		if snap.Status != game.Finished || snap.Outcome.Reason != game.Resignation || snap.Outcome.Result != game.WhiteWins || snap.Ply != 5 {
			t.Errorf("after move 3: %v %+v at ply %d, want Black resigning instead of moving", snap.Status, snap.Outcome, snap.Ply)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		s := New(Config{Store: newMemStore(), Bots: func(game.Level) BotPlayer { return concedingBot{from: 2, offer: true} },
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		defer s.Close()
		ctx := context.Background()
		id, err := s.CreatePracticeGame(ctx, 1, game.Hard, clock.Untimed, PlayWhite)
		if err != nil {
			t.Fatal(err)
		}
		openWithBot(t, s, id, 1)
		synctest.Wait()
		snap, _ := s.Game(ctx, id)
		if snap.Ply != 4 || !snap.DrawOffer || snap.DrawOfferBy != chess.Black {
			t.Fatalf("after the bot's second move: ply %d, offer %v by %v; want Black's offer", snap.Ply, snap.DrawOffer, snap.DrawOfferBy)
		}
		if err := s.AnswerDraw(ctx, id, 1, true); err != nil {
			t.Fatal(err)
		}
		if snap, _ := s.Game(ctx, id); snap.Outcome.Reason != game.Agreement {
			t.Errorf("accepted: %+v, want a draw by agreement", snap.Outcome)
		}
	})
}
