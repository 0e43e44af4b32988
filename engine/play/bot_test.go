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

// concedingBot plays the first legal move at once and, from move from
// on, resigns or offers draws as told.
type concedingBot struct {
	from          int
	resign, offer bool
}

func (concedingBot) Move(ctx context.Context, p chess.Position, _ []uint64, _, _ time.Duration) (chess.Move, error) {
	return firstMoveBot{}.Move(ctx, p, nil, 0, 0)
}

func (b concedingBot) Resigns(p chess.Position) bool {
	return b.resign && p.FullmoveNumber() >= b.from
}

func (b concedingBot) OffersDraw(p chess.Position, _ []uint64) bool {
	return b.offer && p.FullmoveNumber() >= b.from
}

// TestBotResignsAndOffersDraw: a bot that gives up resigns (the human
// wins), and one that offers a draw with its move leaves the offer
// standing for the human to answer.
func TestBotResignsAndOffersDraw(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    BotPlayer
	}{{"resigns", concedingBot{from: 3, resign: true}}, {"offers", concedingBot{from: 3, offer: true}}, {"neither", firstMoveBot{}}} {
		synctest.Test(t, func(t *testing.T) {
			s := New(Config{Store: newMemStore(), Bots: func(game.Level) BotPlayer { return tc.b },
				Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			defer s.Close()
			ctx := context.Background()
			id, err := s.CreatePracticeGame(ctx, 1, game.Medium, clock.Untimed, PlayWhite)
			if err != nil {
				t.Fatal(err)
			}
			openWithBot(t, s, id, 1)
			synctest.Wait()
			// What botMove does around the bot's move: ask whether it
			// resigns, and whether it offers a draw with its move.
			resigned := false
			err = s.within(ctx, id, func(tb *table) error {
				now := tb.s.now()
				evs, ok := tb.botResigns(chess.Black, now)
				resigned = ok
				if !ok {
					evs = tb.botOffersDraw(chess.Black, tb.g.Position(), tb.g.Record().History(), now)
				}
				return tb.commit(evs)
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			snap, _ := s.Game(ctx, id)
			switch tc.name {
			case "resigns":
				if !resigned || snap.Status != game.Finished || snap.Outcome.Reason != game.Resignation || snap.Outcome.Result != game.WhiteWins {
					t.Errorf("resigned %v: %v %+v, want White winning by resignation", resigned, snap.Status, snap.Outcome)
				}
			case "offers":
				if snap.Status != game.Active || !snap.DrawOffer || snap.DrawOfferBy != chess.Black {
					t.Fatalf("%v, offer %v by %v; want Black's offer standing", snap.Status, snap.DrawOffer, snap.DrawOfferBy)
				}
				if err := s.AnswerDraw(ctx, id, 1, true); err != nil {
					t.Fatal(err)
				}
				if snap, _ := s.Game(ctx, id); snap.Outcome.Reason != game.Agreement {
					t.Errorf("accepted: %+v, want a draw by agreement", snap.Outcome)
				}
			default:
				if resigned || snap.Status != game.Active || snap.DrawOffer {
					t.Errorf("a plain bot: resigned %v, %v, offer %v; want play going on", resigned, snap.Status, snap.DrawOffer)
				}
			}
		})
	}
}
