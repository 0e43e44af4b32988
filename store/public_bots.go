package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/play"
)

// A computer player at a public table goes by a member's name, one of
// account.BotNames picked from the game's ID (account.PublicBotName).
// Each game over keeps the names its computer players went by
// (games.white_bot_name and black_bot_name, each indexed), so that the
// profile of a name reads its own games: reading every public game with
// a computer and picking a name's out took 245 ms for 20,000 such games,
// against 8.4 ms for one name's 833 (BenchmarkYearsOfPlay).

// setPublicBotNames is the part of an UPDATE of games that writes the
// names its computer players went by, if it was played at a public table
// (account.PublicBotName); its parameters are the names White's and
// Black's computer would have, from the game's ID (publicBotNames).
const setPublicBotNames = `white_bot_name = CASE WHEN kind IN ('quick', 'lounge') AND white_bot <> '' THEN ? END,
	black_bot_name = CASE WHEN kind IN ('quick', 'lounge') AND black_bot <> '' THEN ? END`

// publicBotNames returns setPublicBotNames' parameters for game id.
func publicBotNames(id int64) (white, black string) {
	return account.PublicBotName(id, chess.White), account.PublicBotName(id, chess.Black)
}

// PublicBotGames returns the public games over (finished or aborted) in
// which a computer player went by name, oldest first, without moves.
// name is spelt as account.BotNames spells it.
func (s *Store) PublicBotGames(ctx context.Context, name string) ([]play.GameRecord, error) {
	games, err := selectGames(ctx, s.rdb, publicBotGamesQuery, name, name)
	if err != nil {
		return nil, fmt.Errorf("store: public games under %s: %w", name, err)
	}
	return games, nil
}

// gamesUnderName selects the IDs of the games whose computer player went
// by a name (its parameter, twice), through each colour's index.
const gamesUnderName = `SELECT id FROM games WHERE white_bot_name = ?
	UNION ALL SELECT id FROM games WHERE black_bot_name = ?`

// publicBotGamesQuery reads the games under a name (its parameter,
// twice), oldest first.
const publicBotGamesQuery = `SELECT ` + gameColumns + ` FROM games WHERE id IN (` + gamesUnderName + `)
	ORDER BY ended_at, id`

// publicBotRatingsQuery reads the ratings before the rated games under a
// name (its parameter, twice).
const publicBotRatingsQuery = `SELECT game_id, rating_before FROM rating_changes
	WHERE game_id IN (` + gamesUnderName + `)`

// publicBotsSinceQuery reads the creation and start of the first public
// game with a computer player among those over. Each MIN reads its
// colour's index of names: comparing with the empty string lets SQLite
// use that partial index, and the + keeps it from walking the whole
// table by ID instead, looking for the first game with a name.
const publicBotsSinceQuery = `SELECT created_at, started_at FROM games WHERE id = (SELECT MIN(id) FROM (
	SELECT MIN(+id) AS id FROM games WHERE white_bot_name > ''
	UNION ALL SELECT MIN(+id) FROM games WHERE black_bot_name > '') AS firsts)`

// PublicBotOpponentRatings returns, for each rated public game in which a
// computer player went by name, the rating its human player had before
// the game.
func (s *Store) PublicBotOpponentRatings(ctx context.Context, name string) (map[int64]int, error) {
	var rows []struct {
		GameID int64 `db:"game_id"`
		Before int   `db:"rating_before"`
	}
	err := s.rdb.SelectContext(ctx, &rows, publicBotRatingsQuery, name, name)
	if err != nil {
		return nil, fmt.Errorf("store: ratings against %s: %w", name, err)
	}
	out := make(map[int64]int, len(rows))
	for _, r := range rows {
		out[r.GameID] = r.Before
	}
	return out, nil
}

// PublicBotsSince returns when the first public game with a computer
// player that is over began (its creation, if it never started): when
// every name computer players go by joined. It is the zero time while
// there is none.
func (s *Store) PublicBotsSince(ctx context.Context) (time.Time, error) {
	var r struct {
		Created string         `db:"created_at"`
		Started sql.NullString `db:"started_at"`
	}
	err := s.rdb.GetContext(ctx, &r, publicBotsSinceQuery)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("store: first public game with a computer player: %w", err)
	}
	at := r.Created
	if r.Started.Valid {
		at = r.Started.String
	}
	return parseTime(at)
}
