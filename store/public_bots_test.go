package store

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
)

// publicBotFixture plays, at public tables, games against the Medium
// computer as Black: the first is alice's win over it (rated after her
// win over bob), then three more of bob's under the same name (the last
// aborted, one more still being played) and one under another name; a
// practice game against it has no name. It returns the name, its games
// over in the order they ended, and the other name's game.
func publicBotFixture(t *testing.T, s *Store) (name string, under []int64, other int64) {
	t.Helper()
	mustUsers(t, s, 2)
	alice, bob, medium := game.Human(1), game.Human(2), game.Bot(game.Medium)
	at := gameT0
	finish(t, s, create(t, s, play.Practice, alice, medium, at), game.WhiteWins, at)
	finish(t, s, create(t, s, play.Quick, alice, bob, at), game.WhiteWins, at)
	at = at.Add(time.Minute)
	first := create(t, s, play.Quick, alice, medium, at)
	finish(t, s, first, game.WhiteWins, at)
	name, under = account.PublicBotName(first, chess.Black), []int64{first}
	for len(under) < 4 || other == 0 {
		at = at.Add(time.Minute)
		id := create(t, s, play.Quick, bob, medium, at)
		switch {
		case account.PublicBotName(id, chess.Black) != name && other == 0:
			other = id
			finish(t, s, id, game.Draw, at)
		case account.PublicBotName(id, chess.Black) != name:
			abort(t, s, id, at)
		case len(under) < 3:
			under = append(under, id)
			finish(t, s, id, game.BlackWins, at)
		case len(under) == 3:
			under = append(under, id)
			abort(t, s, id, at)
		}
	}
	for {
		if id := create(t, s, play.Quick, bob, medium, at); account.PublicBotName(id, chess.Black) == name {
			break // still being played: not among the games over
		}
	}
	return name, under, other
}

// TestPublicBotGames: the games of a name computer players go by are the
// public games over in which a computer went by it, oldest first; its
// rated games come with their human's rating before them, and the first
// such game over dates them all.
func TestPublicBotGames(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	name, under, other := publicBotFixture(t, s)
	games, err := s.PublicBotGames(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, g := range games {
		ids = append(ids, g.ID)
	}
	if !slices.Equal(ids, under) || !games[0].White.IsHuman() || !games[0].Black.IsBot() {
		t.Fatalf("PublicBotGames(%s) = %v, want %v", name, ids, under)
	}
	ratings, err := s.PublicBotOpponentRatings(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	// alice had 1220 after beating bob, before meeting the computer; the
	// aborted game is not rated.
	if len(ratings) != 3 || ratings[under[0]] != 1220 || ratings[under[1]] == 0 || ratings[under[2]] == 0 {
		t.Errorf("PublicBotOpponentRatings(%s) = %v, want games %v, %d at 1220", name, ratings, under[:3], under[0])
	}
	otherName := account.PublicBotName(other, chess.Black)
	games, err = s.PublicBotGames(ctx, otherName)
	if err != nil || len(games) == 0 || games[0].ID != other {
		t.Errorf("PublicBotGames(%s) = %v, %v, want game %d first", otherName, games, err, other)
	}
	for _, g := range games {
		if account.PublicBotName(g.ID, chess.Black) != otherName {
			t.Errorf("game %d under %s", g.ID, otherName)
		}
	}
	since, err := s.PublicBotsSince(ctx)
	if want := gameT0.Add(time.Minute); err != nil || !since.Equal(want) {
		t.Errorf("PublicBotsSince = %v, %v, want %v", since, err, want)
	}
}

// TestPublicBotsSinceNone: before any public game with a computer is
// over, the names have no date.
func TestPublicBotsSinceNone(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 1)
	create(t, s, play.Quick, game.Human(1), game.Bot(game.Easy), gameT0) // being played
	if since, err := s.PublicBotsSince(context.Background()); err != nil || !since.IsZero() {
		t.Errorf("PublicBotsSince = %v, %v, want the zero time", since, err)
	}
}

// TestFillPublicBotNames: migration 0018's fill gives the games over
// before it the names that finishing them writes now, and no others.
func TestFillPublicBotNames(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	name, under, _ := publicBotFixture(t, s)
	names := func() map[int64]string {
		var rows []struct {
			ID    int64   `db:"id"`
			White *string `db:"white_bot_name"`
			Black *string `db:"black_bot_name"`
		}
		if err := s.db.SelectContext(ctx, &rows, "SELECT id, white_bot_name, black_bot_name FROM games ORDER BY id"); err != nil {
			t.Fatal(err)
		}
		out := map[int64]string{}
		for _, r := range rows {
			out[r.ID] = "-"
			if r.White != nil {
				out[r.ID] = "white " + *r.White
			}
			if r.Black != nil {
				out[r.ID] += " black " + *r.Black
			}
		}
		return out
	}
	written := names()
	if written[under[0]] != "- black "+name {
		t.Fatalf("game %d's names %q, want %s as Black's", under[0], written[under[0]], name)
	}
	s.db.MustExec("UPDATE games SET white_bot_name = NULL, black_bot_name = NULL")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := migrationFills[18](ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if filled := names(); !maps.Equal(filled, written) {
		t.Errorf("filled %v, want %v", filled, written)
	}
}
