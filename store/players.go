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
	err := s.rdb.SelectContext(ctx, &rows, `SELECT `+gameColumns+` FROM games
		WHERE (white_id = ? OR black_id = ?) AND status IN ('finished', 'aborted')
		ORDER BY ended_at DESC, id DESC LIMIT ?`, user, user, limit)
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
