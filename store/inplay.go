package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"satranc/engine/elo"
	"satranc/engine/game"
)

// ActiveGame returns the most recent game in progress (status active) in
// which user holds a seat, or 0 if there is none. It reads only the
// user's unfinished games (indexes games_unfinished_white and _black), so
// it is cheap enough for every page however many games are in progress.
// (The redundant "status IN" terms let the database see that the partial
// indexes apply.)
func (s *Store) ActiveGame(ctx context.Context, user int64) (int64, error) {
	var id sql.NullInt64
	err := s.rdb.GetContext(ctx, &id, `SELECT MAX(id) FROM (
		SELECT id FROM games WHERE status IN ('waiting', 'active') AND status = 'active' AND white_id = ?
		UNION ALL
		SELECT id FROM games WHERE status IN ('waiting', 'active') AND status = 'active' AND black_id = ?
	) AS seated`, user, user)
	if err != nil {
		return 0, fmt.Errorf("store: active game of %d: %w", user, err)
	}
	return id.Int64, nil
}

// PlayCounts returns how many games are in progress and how many members
// sit at them (a member at two tables counts once; computer players do not
// count).
func (s *Store) PlayCounts(ctx context.Context) (players, games int, err error) {
	var row struct {
		Games   int `db:"games"`
		Players int `db:"players"`
	}
	err = s.rdb.GetContext(ctx, &row, `SELECT
		(SELECT COUNT(*) FROM games WHERE status IN ('waiting', 'active') AND status = 'active') AS games,
		(SELECT COUNT(*) FROM (
			SELECT white_id AS u FROM games WHERE status IN ('waiting', 'active') AND status = 'active' AND white_id IS NOT NULL
			UNION
			SELECT black_id AS u FROM games WHERE status IN ('waiting', 'active') AND status = 'active' AND black_id IS NOT NULL
		) AS seated) AS players`)
	if err != nil {
		return 0, 0, fmt.Errorf("store: play counts: %w", err)
	}
	return row.Players, row.Games, nil
}

// GamesToWatch returns up to limit games in progress for the Watch page,
// best-rated first: by the sum of both players' ratings, a bot counted at
// its fixed rating (elo.BotRating), then the newest first. Practice games
// against the computer are left out, as lichess leaves out games against
// its engine; a public table's bot game looks like any other and stays.
func (s *Store) GamesToWatch(ctx context.Context, limit int) ([]int64, error) {
	if limit <= 0 {
		return nil, nil
	}
	bot := func(col string) string {
		return `CASE g.` + col + ` WHEN 'easy' THEN ` + strconv.Itoa(elo.BotRating(game.Easy)) +
			` WHEN 'medium' THEN ` + strconv.Itoa(elo.BotRating(game.Medium)) +
			` WHEN 'hard' THEN ` + strconv.Itoa(elo.BotRating(game.Hard)) + ` ELSE 0 END`
	}
	var ids []int64
	err := s.rdb.SelectContext(ctx, &ids, `SELECT g.id FROM games g
		LEFT JOIN users w ON w.id = g.white_id
		LEFT JOIN users b ON b.id = g.black_id
		WHERE g.status IN ('waiting', 'active') AND g.status = 'active' AND g.kind <> 'practice'
		ORDER BY COALESCE(w.rating, `+bot("white_bot")+`) + COALESCE(b.rating, `+bot("black_bot")+`) DESC, g.id DESC
		LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: games to watch: %w", err)
	}
	return ids, nil
}
