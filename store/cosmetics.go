package store

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"satranc/engine/cosmetics"
)

// ErrInvalidReason is returned for an item grant without a reason, or
// with one longer than 200 characters.
var ErrInvalidReason = errors.New("store: a grant needs a reason of 1 to 200 characters")

// GrantItem gives the user userID the cosmetic item (an ID of
// cosmetics.Catalogue, such as "frame_cup_gold") for reason, a short text kept
// with it ("daily_cup 2026-11-29 1st", "admin"). It is idempotent per
// (user, item): granted is false, and nothing changes, when the user
// already owns the item, a standard item included. An unknown item matches
// cosmetics.ErrUnknownItem, an unknown user ErrNotFound.
func (s *Store) GrantItem(ctx context.Context, userID int64, item, reason string) (granted bool, err error) {
	granted, err = grantItem(ctx, s.db, s.now(), userID, item, reason)
	if err != nil {
		return false, fmt.Errorf("store: grant %q to user %d: %w", item, userID, err)
	}
	return granted, nil
}

// grantItem is GrantItem on q, so that a prize payout can grant items in
// the transaction that pays its chips.
func grantItem(ctx context.Context, q sqlx.ExecerContext, at string, userID int64, item, reason string) (bool, error) {
	it, ok := cosmetics.Lookup(item)
	if !ok {
		return false, cosmetics.ErrUnknownItem
	}
	if n := utf8.RuneCountInString(reason); n == 0 || n > 200 { // as length() in the CHECK
		return false, ErrInvalidReason
	}
	if it.Standard {
		return false, nil // everyone owns it already
	}
	res, err := q.ExecContext(ctx, `INSERT INTO user_items (user_id, item, reason, granted_at)
		VALUES (?, ?, ?, ?) ON CONFLICT (user_id, item) DO NOTHING`, userID, item, reason, at)
	if broken(err) == ForeignKeyConstraint {
		return false, ErrNotFound
	}
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Inventory returns the items granted to userID, oldest first (none for
// an unknown user).
func (s *Store) Inventory(ctx context.Context, userID int64) (cosmetics.Inventory, error) {
	var inv cosmetics.Inventory
	err := s.db.SelectContext(ctx, &inv.Granted,
		`SELECT item FROM user_items WHERE user_id = ? ORDER BY granted_at, item`, userID)
	if err != nil {
		return cosmetics.Inventory{}, fmt.Errorf("store: inventory of user %d: %w", userID, err)
	}
	return inv, nil
}

// SaveLook stores l as the chosen look of userID. It checks no ownership:
// cosmetics.Service.Choose does, before it calls SaveLook.
func (s *Store) SaveLook(ctx context.Context, userID int64, l cosmetics.Look) error {
	err := s.changeSessions(ctx, userID, func(tx *countedTx) error {
		return updatedOne(tx.ExecContext(ctx, `UPDATE users SET board_theme = ?, piece_set = ?, frame = ? WHERE id = ?`,
			l.Board, l.Pieces, l.Frame, userID))
	})
	if err != nil {
		return fmt.Errorf("store: save look of user %d: %w", userID, err)
	}
	return nil
}

var _ cosmetics.Store = (*Store)(nil)
