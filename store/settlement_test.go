package store

import (
	"context"
	"errors"
	"testing"

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
