package store

import (
	"context"
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
