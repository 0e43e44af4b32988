package store

import (
	"context"
	"fmt"

	"satranc/engine/lobby"
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
	err := s.db.GetContext(ctx, &r, `SELECT rating, gender, vip, restricted FROM users WHERE id = ?`, user)
	if err != nil {
		return lobby.Player{}, fmt.Errorf("store: lobby player %d: %w", user, notFound(err))
	}
	return lobby.Player{User: user, Rating: r.Rating, Female: r.Gender == "female", VIP: r.VIP, Restricted: r.Restricted}, nil
}
