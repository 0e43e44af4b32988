package store

import (
	"context"
	"fmt"
	"testing"

	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestActiveGame checks the game in progress every page links to: the
// newest active game in which the member holds either seat, never a game
// still waiting for its guest or one that is over.
func TestActiveGame(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 4)
	ctx := context.Background()
	create := func(white, black game.Seat) int64 {
		t.Helper()
		id, err := s.CreateGame(ctx, play.GameRecord{Kind: play.Private, White: white, Black: black,
			Control: clock.MustParse("3+2"), Status: game.Waiting, CreatedAt: gameT0})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	start := func(white, black game.Seat) int64 {
		t.Helper()
		id := create(white, black)
		if err := s.StartGame(ctx, id, white, black, gameT0); err != nil {
			t.Fatal(err)
		}
		return id
	}
	want := func(user, id int64) {
		t.Helper()
		if got, err := s.ActiveGame(ctx, user); err != nil || got != id {
			t.Errorf("ActiveGame(%d) = %d, %v, want %d", user, got, err, id)
		}
	}
	want(1, 0)
	create(game.Human(1), game.Seat{}) // waiting for its guest
	want(1, 0)
	asWhite := start(game.Human(1), game.Human(2))
	want(1, asWhite)
	want(2, asWhite)
	asBlack := start(game.Human(3), game.Human(1))
	want(1, asBlack) // the newer of the two
	want(3, asBlack)
	if err := s.FinishGame(ctx, asBlack, play.Ending{Status: game.Finished,
		Outcome: game.Outcome{Result: game.BlackWins, Reason: game.Resignation}, At: gameT0}); err != nil {
		t.Fatal(err)
	}
	want(1, asWhite)
	want(3, 0)
	want(4, 0)
}

// BenchmarkActiveGame reads a member's game in progress, as every page a
// member loads does, among 5,000 games in progress (the load test's
// 5,000-game soak): the read must not grow with the games of others.
func BenchmarkActiveGame(b *testing.B) {
	s, _ := mustOpen(b)
	ctx := context.Background()
	const games = 5000
	mustActiveGames(b, s, games)
	b.ReportAllocs()
	user := int64(0)
	for b.Loop() {
		user = user%(2*games) + 1
		if id, err := s.ActiveGame(ctx, user); err != nil || id != (user+1)/2 {
			b.Fatalf("ActiveGame(%d) = %d, %v", user, id, err)
		}
	}
}

// BenchmarkPlayCounts counts the games in progress and their players, as
// the home page does, at 5,000 games in progress.
func BenchmarkPlayCounts(b *testing.B) {
	s, _ := mustOpen(b)
	const games = 5000
	mustActiveGames(b, s, games)
	b.ReportAllocs()
	for b.Loop() {
		if players, n, err := s.PlayCounts(context.Background()); err != nil || n != games || players != 2*games {
			b.Fatalf("PlayCounts = %d, %d, %v", players, n, err)
		}
	}
}

// mustActiveGames adds n games in progress between 2n new members, game
// i (from 1) between members 2i-1 and 2i, in one transaction.
func mustActiveGames(tb testing.TB, s *Store, n int) {
	tb.Helper()
	tx, err := s.db.Beginx()
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	for i := 1; i <= 2*n; i++ {
		if _, err := tx.Exec(`INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, 'x', ?)`,
			i, fmt.Sprintf("u%d", i), s.now()); err != nil {
			tb.Fatal(err)
		}
	}
	for i := 1; i <= n; i++ {
		if _, err := tx.Exec(`INSERT INTO games (kind, white_id, black_id, start_fen, status, created_at, started_at)
			VALUES ('private', ?, ?, 'startpos', 'active', ?, ?)`, 2*i-1, 2*i, s.now(), s.now()); err != nil {
			tb.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}
