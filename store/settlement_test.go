package store

import (
	"context"
	"errors"
	"testing"

	"satranc/engine/chess"
	"satranc/engine/chips"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestGameSettlement: the result panel's figures are what the settlement
// wrote: the rating change of a rated game, the stake and what came back
// of a lounge game, nothing before the end.
func TestGameSettlement(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	fund(t, s, 1, 50000)
	fund(t, s, 2, 50000)
	ctx := context.Background()
	alice, bob := game.Human(1), game.Human(2)

	tests := []struct {
		name string
		play func() int64
		user int64
		want play.Settlement
	}{
		{"live game", func() int64 { return create(t, s, play.Quick, alice, bob, gameT0) }, 1,
			play.Settlement{}},
		{"quick win", func() int64 {
			id := create(t, s, play.Quick, alice, bob, gameT0)
			finish(t, s, id, game.WhiteWins, gameT0)
			return id
		}, 1, play.Settlement{Settled: true, Rated: true, Rating: play.RatingChange{Before: 1200, After: 1220}}},
		{"lounge loss", func() int64 {
			id, _ := lounge(t, s, alice, bob, 500, gameT0)
			finish(t, s, id, game.BlackWins, gameT0)
			return id
		}, 1, play.Settlement{Settled: true, Rated: true, Rating: play.RatingChange{Before: 1220, After: 1198}, Staked: 500}},
		{"lounge win", func() int64 {
			id, _ := lounge(t, s, alice, bob, 500, gameT0)
			finish(t, s, id, game.WhiteWins, gameT0)
			return id
		}, 1, play.Settlement{Settled: true, Rated: true, Rating: play.RatingChange{Before: 1198, After: 1218}, Staked: 500, Returned: 950}},
		{"lounge abort", func() int64 {
			id, _ := lounge(t, s, alice, bob, 500, gameT0)
			abort(t, s, id, gameT0)
			return id
		}, 2, play.Settlement{Settled: true, Staked: 500, Returned: 500}},
		{"practice", func() int64 {
			id := create(t, s, play.Practice, alice, game.Bot(game.Easy), gameT0)
			finish(t, s, id, game.WhiteWins, gameT0)
			return id
		}, 1, play.Settlement{Settled: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := tc.play()
			got, err := s.GameSettlement(ctx, id, tc.user)
			if err != nil {
				t.Fatal(err)
			}
			got.Rating.GameID, got.Rating.At = 0, gameT0
			tc.want.Rating.At = gameT0
			if got != tc.want {
				t.Errorf("GameSettlement(%d, %d) = %+v, want %+v", id, tc.user, got, tc.want)
			}
		})
	}
	if _, err := s.GameSettlement(ctx, 999, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("GameSettlement(missing) = %v, want ErrNotFound", err)
	}
}

// BenchmarkGameSettlement reads the result panel's figures of a lounge
// game for a member with a long history: 5,000 credits in the ledger
// before it. The read must not grow with that history.
func BenchmarkGameSettlement(b *testing.B) {
	s, _ := mustOpen(b)
	mustUsers(b, s, 2)
	ctx := context.Background()
	tx := s.db.MustBegin()
	for range 5000 {
		if err := post(ctx, tx, s.now(), chips.Grant(1, 10, chips.ReasonGrant)); err != nil {
			b.Fatal(err)
		}
	}
	if err := post(ctx, tx, s.now(), chips.Grant(2, 10000, chips.ReasonGrant)); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	id, _, err := s.CreatePublicGame(ctx, play.GameRecord{Kind: play.Lounge, White: game.Human(1), Black: game.Human(2),
		Control: fivePlusZero, Status: game.Active, Stake: 500, CreatedAt: gameT0, StartedAt: gameT0})
	if err != nil {
		b.Fatal(err)
	}
	end := play.Ending{Status: game.Finished, Outcome: game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}, At: gameT0}
	if err := s.FinishGame(ctx, id, end); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		st, err := s.GameSettlement(ctx, id, 1)
		if err != nil || !st.Rated || st.Returned == 0 {
			b.Fatalf("GameSettlement = %+v, %v; want a rated win with chips back", st, err)
		}
	}
}
