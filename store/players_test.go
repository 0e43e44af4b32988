package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"satranc/engine/game"
	"satranc/engine/play"
)

// TestPublicBotGames: the games the names computer players go by have
// played are the public games over with a computer seat, oldest first,
// each rated one with its human's rating before it.
func TestPublicBotGames(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	ctx := context.Background()
	alice, bob, medium := game.Human(1), game.Human(2), game.Bot(game.Medium)
	at := gameT0
	finish(t, s, create(t, s, play.Practice, alice, medium, at), game.WhiteWins, at) // practice: no name
	finish(t, s, create(t, s, play.Quick, alice, bob, at), game.WhiteWins, at)       // no computer
	at = at.Add(time.Minute)
	first := create(t, s, play.Quick, medium, alice, at)
	finish(t, s, first, game.BlackWins, at)
	at = at.Add(time.Minute)
	aborted := create(t, s, play.Quick, bob, medium, at)
	abort(t, s, aborted, at)
	create(t, s, play.Quick, bob, medium, at) // still being played

	games, err := s.PublicBotGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 || games[0].ID != first || games[1].ID != aborted || !games[0].Black.IsHuman() || !games[0].White.IsBot() {
		t.Fatalf("PublicBotGames = %+v, want games %d and %d", games, first, aborted)
	}
	ratings, err := s.PublicBotOpponentRatings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// alice had 1220 after beating bob, before meeting the computer.
	if len(ratings) != 1 || ratings[first] != 1220 {
		t.Errorf("PublicBotOpponentRatings = %v, want {%d: 1220}", ratings, first)
	}
}

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
