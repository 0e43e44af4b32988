package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"satranc/engine/game"
	"satranc/engine/play"
)

// TestPlayerGames: a member's games over (finished or aborted), with
// either colour, latest end first (the higher ID first among games that
// ended at the same time), as many as asked; games still waiting or
// being played, and other members' games, are not among them.
func TestPlayerGames(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 3)
	ctx := context.Background()
	alice, bob, carol := game.Human(1), game.Human(2), game.Human(3)
	var want []int64 // alice's games over, latest first
	at := gameT0
	for i := range 6 {
		white, black := alice, bob
		if i%2 == 1 {
			white, black = bob, alice
		}
		id := create(t, s, play.Private, white, black, at)
		if i == 3 {
			abort(t, s, id, at)
		} else {
			finish(t, s, id, game.WhiteWins, at)
		}
		want = append([]int64{id}, want...)
		if i != 1 { // the second and third games end at the same time
			at = at.Add(time.Minute)
		}
	}
	finish(t, s, create(t, s, play.Private, bob, carol, at), game.Draw, at) // not alice's
	create(t, s, play.Private, alice, carol, at)                            // still being played

	for _, limit := range []int{3, 6, 50} {
		games, err := s.PlayerGames(ctx, 1, limit)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]int64, len(games))
		for i, g := range games {
			got[i] = g.ID
		}
		if w := want[:min(limit, len(want))]; !slices.Equal(got, w) {
			t.Errorf("PlayerGames(alice, %d) = %v, want %v", limit, got, w)
		}
	}
}
