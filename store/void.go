package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"satranc/engine/chips"
	"satranc/engine/fairplay"
	"satranc/engine/play"
)

// VoidGame voids the result of finished game id (SPEC section 10), in one
// transaction and once, recording at as its time: it takes back the game's
// chip settlement with compensating ledger entries (chips.VoidHolding),
// each player's rating change (recorded in rating_voids for the history),
// and the experience it earned, and sets games.voided_at, which leaves the
// game out of the statistics and the tournament standings. engine/fairplay
// explains the rule.
//
// A winner who no longer holds all the game paid them gives back what
// their balance holds and the house covers the rest, so the void is never
// refused for spent winnings.
//
// A missing game is ErrNotFound; one voided before is
// fairplay.ErrAlreadyVoided; one not finished is fairplay.ErrNotVoidable.
// In each case nothing changes.
func (s *Store) VoidGame(ctx context.Context, id int64, at time.Time) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: void game %d: %w", id, err)
	}
	defer func() { _ = tx.Rollback() }()
	err = voidGame(ctx, tx, id, formatTime(at))
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return fmt.Errorf("store: void game %d: %w", id, err)
	}
	return nil
}

func voidGame(ctx context.Context, tx *countedTx, id int64, at string) error {
	var g struct {
		Status   string         `db:"status"`
		VoidedAt sql.NullString `db:"voided_at"`
	}
	err := tx.GetContext(ctx, &g, "SELECT status, voided_at FROM games WHERE id = ?", id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return errGameNotFound
	case err != nil:
		return err
	case g.VoidedAt.Valid:
		return fmt.Errorf("%w (at %s)", fairplay.ErrAlreadyVoided, g.VoidedAt.String)
	case g.Status != "finished":
		return fmt.Errorf("%w: the game is %s", fairplay.ErrNotVoidable, g.Status)
	}
	// A game that ended before settlement existed is settled first, so
	// that there is one way of undoing a game.
	if err := settleGame(ctx, tx, id); err != nil {
		return fmt.Errorf("settle: %w", err)
	}
	if err := voidChips(ctx, tx, id, at); err != nil {
		return err
	}
	if err := voidRatings(ctx, tx, id, at); err != nil {
		return fmt.Errorf("ratings: %w", err)
	}
	if err := voidXP(ctx, tx, id); err != nil {
		return fmt.Errorf("xp: %w", err)
	}
	_, err = tx.ExecContext(ctx, "UPDATE games SET voided_at = ? WHERE id = ?", at, id)
	return err
}

// voidChips posts the entries that undo game id's settlement.
func voidChips(ctx context.Context, tx *countedTx, id int64, at string) error {
	var rows []struct {
		DebitKind  string `db:"debit_kind"`
		DebitID    int64  `db:"debit_id"`
		CreditKind string `db:"credit_kind"`
		CreditID   int64  `db:"credit_id"`
		Amount     int64  `db:"amount"`
		Reason     string `db:"reason"`
	}
	err := tx.SelectContext(ctx, &rows, `SELECT debit_kind, debit_id, credit_kind, credit_id, amount, reason
		FROM ledger WHERE game_id = ? ORDER BY id`, id)
	if err != nil {
		return fmt.Errorf("chips: %w", err)
	}
	entries := make([]chips.Entry, len(rows))
	for i, r := range rows {
		from, err := chips.ParseKind(r.DebitKind)
		if err != nil {
			return fmt.Errorf("chips: %w", err)
		}
		to, err := chips.ParseKind(r.CreditKind)
		if err != nil {
			return fmt.Errorf("chips: %w", err)
		}
		entries[i] = chips.Entry{From: chips.Account{Kind: from, ID: r.DebitID}, To: chips.Account{Kind: to, ID: r.CreditID},
			Amount: r.Amount, Reason: chips.Reason(r.Reason), Game: id}
	}
	// What each user paid by the settlement holds now, read in this
	// transaction so that the entries below fit the balances they change.
	holds := map[chips.Account]int64{}
	for _, e := range entries {
		if e.To.Kind != chips.User {
			continue
		}
		if _, ok := holds[e.To]; ok {
			continue
		}
		if holds[e.To], err = balanceOf(ctx, tx, e.To); err != nil {
			return fmt.Errorf("chips: %w", err)
		}
	}
	undo, err := chips.VoidHolding(id, entries, func(a chips.Account) int64 { return holds[a] })
	if err != nil {
		return fmt.Errorf("chips: %w", err)
	}
	if err := post(ctx, tx, at, undo...); err != nil {
		return fmt.Errorf("chips: %w", err)
	}
	return nil
}

// voidRatings takes back game id's rating change from each player: the
// change itself, not the rating before the game, so that later games keep
// theirs (see engine/fairplay).
func voidRatings(ctx context.Context, tx *countedTx, id int64, at string) error {
	var changes []struct {
		User   int64 `db:"user_id"`
		Before int   `db:"rating_before"`
		After  int   `db:"rating_after"`
	}
	if err := tx.SelectContext(ctx, &changes,
		"SELECT user_id, rating_before, rating_after FROM rating_changes WHERE game_id = ?", id); err != nil {
		return err
	}
	for _, c := range changes {
		var now int
		err := tx.GetContext(ctx, &now, `UPDATE users SET rating = rating - ?, rated_games = rated_games - 1
			WHERE id = ? RETURNING rating`, c.After-c.Before, c.User)
		if err != nil {
			return fmt.Errorf("user %d: %w", c.User, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_voids (game_id, user_id, rating_before, rating_after, created_at)
			VALUES (?, ?, ?, ?, ?)`, id, c.User, now+(c.After-c.Before), now, at); err != nil {
			return fmt.Errorf("user %d: %w", c.User, err)
		}
	}
	return nil
}

// voidXP takes back the experience game id earned its players: exactly
// what awardXP gave.
func voidXP(ctx context.Context, tx *countedTx, id int64) error {
	var row gameRow
	if err := tx.GetContext(ctx, &row, "SELECT "+gameColumns+" FROM games WHERE id = ?", id); err != nil {
		return err
	}
	g, err := toGame(row, nil)
	if err != nil || !play.EarnsXP(g.Status) {
		return err
	}
	return addXP(ctx, tx, g, -1)
}
