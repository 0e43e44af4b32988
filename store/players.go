package store

import (
	"context"
	"fmt"

	"satranc/engine/lobby"
	"satranc/engine/play"
)

// LobbyPlayer returns what the lobby needs to seat user: rating, and the
// profile and account flags that open or close tables. The balance is
// left 0 (see Balance). A missing user is ErrNotFound.
func (s *Store) LobbyPlayer(ctx context.Context, user int64) (lobby.Player, error) {
	var r struct {
		Rating     int    `db:"rating"`
		Gender     string `db:"gender"`
		VIP        bool   `db:"vip"`
		Restricted bool   `db:"restricted"`
	}
	err := s.rdb.GetContext(ctx, &r, `SELECT rating, gender, vip, restricted FROM users WHERE id = ?`, user)
	if err != nil {
		return lobby.Player{}, fmt.Errorf("store: lobby player %d: %w", user, notFound(err))
	}
	return lobby.Player{User: user, Rating: r.Rating, Female: r.Gender == "female", VIP: r.VIP, Restricted: r.Restricted}, nil
}

// PlayerGames returns the limit latest games of user that are over
// (finished or aborted), latest first, without their moves.
func (s *Store) PlayerGames(ctx context.Context, user int64, limit int) ([]play.GameRecord, error) {
	var rows []gameRow
	err := s.rdb.SelectContext(ctx, &rows, playerGamesQuery, user, limit, user, limit, limit)
	if err != nil {
		return nil, fmt.Errorf("store: games of user %d: %w", user, err)
	}
	out := make([]play.GameRecord, len(rows))
	for i, r := range rows {
		if out[i], err = toGame(r, nil); err != nil {
			return nil, fmt.Errorf("store: games of user %d: %w", user, err)
		}
	}
	return out, nil
}

// playerGamesQuery takes the latest games over of a member as White and
// as Black apart, each in the order of its index (games_white_over,
// games_black_over) and no further than the limit, and merges the two.
// Asked of both colours at once, SQLite sorted all the member's games to
// keep the first few: 35.8 ms for a member of 20,000 games, against
// 0.39 ms (BenchmarkYearsOfPlay). Its parameters: the member and the limit, twice, then the
// limit. (The subqueries are named, as PostgreSQL asks.)
const playerGamesQuery = `SELECT ` + gameColumns + ` FROM games WHERE id IN (
	SELECT id FROM (SELECT id FROM games WHERE white_id = ? AND status IN ('finished', 'aborted')
		ORDER BY ended_at DESC, id DESC LIMIT ?) AS as_white
	UNION ALL
	SELECT id FROM (SELECT id FROM games WHERE black_id = ? AND status IN ('finished', 'aborted')
		ORDER BY ended_at DESC, id DESC LIMIT ?) AS as_black)
	ORDER BY ended_at DESC, id DESC LIMIT ?`

// PublicBotGames returns every public game over (finished or aborted) in
// which a computer player sat, oldest first, without moves: the games
// the names computer players go by at public tables have played (see
// views.PublicBotName, which picks the name from the game's ID).
func (s *Store) PublicBotGames(ctx context.Context) ([]play.GameRecord, error) {
	var rows []gameRow
	err := s.rdb.SelectContext(ctx, &rows, `SELECT `+gameColumns+` FROM games
		WHERE kind IN ('quick', 'lounge') AND (white_bot <> '' OR black_bot <> '')
			AND status IN ('finished', 'aborted')
		ORDER BY ended_at, id`)
	if err != nil {
		return nil, fmt.Errorf("store: public games with a computer player: %w", err)
	}
	out := make([]play.GameRecord, len(rows))
	for i, r := range rows {
		if out[i], err = toGame(r, nil); err != nil {
			return nil, fmt.Errorf("store: public games with a computer player: %w", err)
		}
	}
	return out, nil
}

// PublicBotOpponentRatings returns, for each rated public game with a
// computer player, the rating its human player had before the game.
func (s *Store) PublicBotOpponentRatings(ctx context.Context) (map[int64]int, error) {
	var rows []struct {
		GameID int64 `db:"game_id"`
		Before int   `db:"rating_before"`
	}
	err := s.rdb.SelectContext(ctx, &rows, `SELECT rc.game_id, rc.rating_before FROM rating_changes rc
		JOIN games g ON g.id = rc.game_id
		WHERE g.kind IN ('quick', 'lounge') AND (g.white_bot <> '' OR g.black_bot <> '')`)
	if err != nil {
		return nil, fmt.Errorf("store: ratings against computer players: %w", err)
	}
	out := make(map[int64]int, len(rows))
	for _, r := range rows {
		out[r.GameID] = r.Before
	}
	return out, nil
}
