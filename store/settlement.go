package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"satranc/engine/chips"
	"satranc/engine/play"
)

// GameSettlement returns what the settlement of game id gave user, as the
// database holds it, for the game page's result panel: whether the game
// is settled yet, the user's rating change (rating_changes) and the chips
// the user staked and got back (the ledger). A missing game is
// ErrNotFound; a user who did not play in it gets nothing but Settled.
func (s *Store) GameSettlement(ctx context.Context, id, user int64) (play.Settlement, error) {
	var r struct {
		Settled  bool  `db:"settled"`
		Staked   int64 `db:"staked"`
		Returned int64 `db:"returned"`
	}
	err := s.rdb.GetContext(ctx, &r, `SELECT g.settled,
		COALESCE((SELECT SUM(amount) FROM ledger WHERE game_id = g.id AND reason = ?
			AND debit_kind = 'user' AND debit_id = ?), 0) AS staked,
		COALESCE((SELECT SUM(amount) FROM ledger WHERE game_id = g.id AND reason IN (?, ?)
			AND credit_kind = 'user' AND credit_id = ?), 0) AS returned
		FROM games g WHERE g.id = ?`,
		string(chips.ReasonStake), user, string(chips.ReasonPayout), string(chips.ReasonRefund), user, id)
	if errors.Is(err, sql.ErrNoRows) {
		err = errGameNotFound
	}
	if err != nil {
		return play.Settlement{}, fmt.Errorf("store: settlement of game %d: %w", id, err)
	}
	out := play.Settlement{Settled: r.Settled, Staked: r.Staked, Returned: r.Returned}
	var c struct {
		Before int    `db:"rating_before"`
		After  int    `db:"rating_after"`
		At     string `db:"created_at"`
	}
	err = s.rdb.GetContext(ctx, &c, `SELECT rating_before, rating_after, created_at
		FROM rating_changes WHERE game_id = ? AND user_id = ?`, id, user)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return out, nil
	case err != nil:
		return play.Settlement{}, fmt.Errorf("store: settlement of game %d: %w", id, err)
	}
	at, err := parseTime(c.At)
	if err != nil {
		return play.Settlement{}, fmt.Errorf("store: settlement of game %d: %w", id, err)
	}
	out.Rated = true
	out.Rating = play.RatingChange{GameID: id, Before: c.Before, After: c.After, At: at}
	return out, nil
}
