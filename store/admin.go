package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"satranc/engine/chips"
	"satranc/engine/fairplay"
)

// ErrInvalidGrant is returned for a chip grant that is not a positive
// amount.
var ErrInvalidGrant = errors.New("store: a grant must be a positive number of chips")

// SetVIP sets or clears the VIP flag of the user named name (SPEC section
// 10: set by an administrator). VIP members pay the lower fee and may sit in
// Has Oda.
func (s *Store) SetVIP(ctx context.Context, name string, on bool) error {
	return s.setUserFlag(ctx, name, "vip", on)
}

// SetRestricted sets or clears the restriction of the user named name: a
// restricted account plays at no public table (SPEC section 10).
func (s *Store) SetRestricted(ctx context.Context, name string, on bool) error {
	return s.setUserFlag(ctx, name, "restricted", on)
}

// SetAdmin makes the user named name an administrator, or no longer one
// (`satranc admin admin NAME on|off`, `satranc serve --admin-user`).
func (s *Store) SetAdmin(ctx context.Context, name string, on bool) error {
	return s.setUserFlag(ctx, name, "is_admin", on)
}

// setUserFlag sets one of the boolean columns vip, restricted and
// is_admin.
func (s *Store) setUserFlag(ctx context.Context, name, column string, on bool) error {
	if column != "vip" && column != "restricted" && column != "is_admin" {
		return fmt.Errorf("store: no user flag %q", column)
	}
	defer s.sessions.forgetAll() // by name, and rare
	err := s.inTx(ctx, func(tx *countedTx) error {
		var userID int64
		err := tx.GetContext(ctx, &userID, `UPDATE users SET `+column+` = ? WHERE username = ? RETURNING id`, on, name)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("user %q: %w", name, notFound(err))
		}
		if err == nil {
			err = s.noteSessionChange(ctx, tx, userID)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store: set %s of %q: %w", column, name, err)
	}
	return nil
}

// GrantChips gives the user named name amount chips from the issuer, as an
// administrator's grant recorded in the ledger (reason admin_grant) with
// the administrator's reason as the entry's note, and returns the new
// balance. The reason must pass fairplay.ParseReason.
func (s *Store) GrantChips(ctx context.Context, name string, amount int64, reason string) (int64, error) {
	if amount <= 0 {
		return 0, ErrInvalidGrant
	}
	reason, err := fairplay.ParseReason(reason)
	if err != nil {
		return 0, fmt.Errorf("store: grant to %q: %w", name, err)
	}
	u, err := s.UserByName(ctx, name)
	if err != nil {
		return 0, err
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store: grant: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := postNoted(ctx, tx, s.now(), reason, chips.Grant(u.ID, amount, chips.ReasonGrant)); err != nil {
		return 0, fmt.Errorf("store: grant %d to %q: %w", amount, name, err)
	}
	bal, err := balanceOf(ctx, tx, chips.UserAccount(u.ID))
	if err != nil {
		return 0, fmt.Errorf("store: grant: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store: grant: %w", err)
	}
	return bal, nil
}
