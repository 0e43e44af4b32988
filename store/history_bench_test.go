package store

import (
	"context"
	"testing"

	"satranc/engine/account"
)

// BenchmarkYearsOfPlay reads what a member's pages, the leaderboard and
// the watch for voids read, on a database of a site that has been played
// on for years: 20,000 members of spread ratings, 120,000 games over, of
// which member 1 played 20,000 with either colour, 20,000 others were
// against the computer at a public table (rated, 24 names among them)
// and every 1,000th was voided. Each read must cost about what it costs on a new site
// (docs/performance.md, "Years of play").
func BenchmarkYearsOfPlay(b *testing.B) {
	s, _ := mustOpenSQLite(b)
	ctx := context.Background()
	const members, games, veteranEvery = 20000, 120000, 6 // member 1 plays every sixth game
	tx := s.db.MustBegin()
	tx.MustExec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO users (id, username, password_hash, created_at, rating, rated_games)
		SELECT i, 'member' || i, 'x', '2024-01-01T00:00:00.000Z', 600 + (i * 7919) % 1800, i % 300 FROM n`, members)
	// Game i is member 1's when i is a multiple of veteranEvery, with White
	// and Black in turn; otherwise two other members', or, one in five, a
	// member's as Black against the computer. It ends i seconds into 2024.
	tx.MustExec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
		t(i, at, vet) AS (SELECT i, strftime('%Y-%m-%dT%H:%M:%fZ', '2024-01-01', '+' || i || ' seconds'), i % ? = 0 FROM n)
		INSERT INTO games (kind, white_id, white_bot, black_id, start_fen, status, result, termination, rated, settled,
			created_at, started_at, ended_at, voided_at)
		SELECT 'quick',
			CASE WHEN vet AND i % 2 = 0 THEN 1 WHEN NOT vet AND i % 5 = 1 THEN NULL ELSE 2 + i % 9000 END,
			CASE WHEN NOT vet AND i % 5 = 1 THEN 'medium' ELSE '' END,
			CASE WHEN vet AND i % 2 = 1 THEN 1 ELSE 9002 + i % 9000 END,
			'startpos', 'finished', CASE i % 3 WHEN 0 THEN '1-0' WHEN 1 THEN '0-1' ELSE '1/2-1/2' END,
			'resignation', 1, 1, at, at, at, CASE WHEN i % 1000 = 0 THEN at END FROM t`, games, veteranEvery)
	tx.MustExec(`INSERT INTO rating_changes (game_id, user_id, rating_before, rating_after, created_at)
		SELECT id, black_id, 1500, 1510, ended_at FROM games WHERE white_bot <> ''`)
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	fill, err := s.db.BeginTxx(ctx, nil)
	if err == nil {
		err = fillPublicBotNames(ctx, fill)
	}
	if err == nil {
		err = fill.Commit()
	}
	if err != nil {
		b.Fatal(err)
	}
	since, _ := parseTime("2025-01-01T00:00:00.000Z") // after the last void: the poll finds none, as most do
	var lowest int64
	if err := s.rdb.Get(&lowest, "SELECT id FROM users ORDER BY rating, id LIMIT 1"); err != nil {
		b.Fatal(err)
	}
	reads := []struct {
		name string
		read func() error
	}{
		{"Stats", func() error { _, err := s.Stats(ctx, 1); return err }},
		{"Rating", func() error { _, err := s.Rating(ctx, 1); return err }},
		{"PlayerGames", func() error { _, err := s.PlayerGames(ctx, 1, 50); return err }},
		{"Leaderboard", func() error { _, err := s.Leaderboard(ctx, 100); return err }},
		{"StandingOfLowest", func() error { _, err := s.StandingOf(ctx, lowest); return err }},
		{"VoidsSince", func() error { _, err := s.VoidsSince(ctx, since); return err }},
		{"BotName", func() error {
			if _, err := s.PublicBotGames(ctx, account.BotNames[0]); err != nil {
				return err
			}
			_, err := s.PublicBotOpponentRatings(ctx, account.BotNames[0])
			return err
		}},
		{"BotsSince", func() error { _, err := s.PublicBotsSince(ctx); return err }},
	}
	for _, r := range reads {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				if err := r.read(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
