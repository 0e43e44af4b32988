package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"satranc/engine/chips"
)

// The chips are an append-only double-entry ledger (migration
// 0004_economy): each row moves chips from one account to another, and the
// balances table, updated in the same transaction, refuses by a CHECK any
// entry that would take a user or an escrow below zero. The entries
// themselves come from engine/chips.

// Balance returns the chips of user. A user who does not exist is
// ErrNotFound; one who never had chips has 0.
func (s *Store) Balance(ctx context.Context, user int64) (int64, error) {
	var n int64
	err := s.rdb.GetContext(ctx, &n, `SELECT COALESCE(
		(SELECT balance FROM balances WHERE kind = 'user' AND id = users.id), 0) FROM users WHERE id = ?`, user)
	if err != nil {
		return 0, fmt.Errorf("store: balance of user %d: %w", user, notFound(err))
	}
	return n, nil
}

// GrantSignup issues amount chips to user as the sign-up grant, once per
// user: it reports false, changing nothing, if the user had it already.
// CreateUser calls it in its own transaction with s.SignupGrant.
func (s *Store) GrantSignup(ctx context.Context, user, amount int64) (bool, error) {
	ok, err := s.grantOnce(ctx, chips.Grant(user, amount, chips.ReasonSignup), s.Now())
	if err != nil {
		return false, fmt.Errorf("store: sign-up grant to user %d: %w", user, err)
	}
	return ok, nil
}

// ClaimDailyBonus issues the daily bonus (s.DailyBonus chips) to user if
// they have not had it on now's calendar day (UTC), and reports whether it
// did. Claiming again the same day changes nothing.
func (s *Store) ClaimDailyBonus(ctx context.Context, user int64, now time.Time) (bool, error) {
	ok, err := s.grantOnce(ctx, chips.Grant(user, s.DailyBonus, chips.ReasonDailyBonus), now)
	if err != nil {
		return false, fmt.Errorf("store: daily bonus for user %d: %w", user, err)
	}
	return ok, nil
}

// grantOnce posts e in its own transaction; a unique index of the ledger
// (ledger_signup, ledger_daily) that refuses it means "had it already".
func (s *Store) grantOnce(ctx context.Context, e chips.Entry, at time.Time) (bool, error) {
	if e.Amount <= 0 {
		return false, nil // granting nothing is configured: nothing to record
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer func() { _ = tx.Rollback() }()
	if err := userExists(ctx, tx, e.To.ID); err != nil {
		return false, err
	}
	err = post(ctx, tx, formatTime(at), e)
	if broken(err) == UniqueConstraint {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// userExists is ErrNotFound unless user exists.
func userExists(ctx context.Context, q sqlx.QueryerContext, user int64) error {
	var one int
	return notFound(sqlx.GetContext(ctx, q, &one, "SELECT 1 FROM users WHERE id = ?", user))
}

// post writes entries to the ledger and the balances, in q's transaction,
// at the stored time at. An entry that would take a user or an escrow below
// zero is an error wrapping chips.ErrInsufficientBalance (the balances
// CHECK); one that would take any balance past the int64 range wraps
// chips.ErrOverflow; one that repeats a game's entry is a unique violation (the
// ledger_game_entry index).
func post(ctx context.Context, q sqlx.ExtContext, at string, es ...chips.Entry) error {
	return postNoted(ctx, q, at, "", es...)
}

// postNoted is post with a note kept with each entry (ledger.note), such
// as the reason an administrator gave for a grant.
func postNoted(ctx context.Context, q sqlx.ExtContext, at, note string, es ...chips.Entry) error {
	for _, e := range es {
		if err := e.Check(); err != nil {
			return err
		}
		game := sql.NullInt64{Int64: e.Game, Valid: e.Game != 0}
		_, err := q.ExecContext(ctx, `INSERT INTO ledger
			(debit_kind, debit_id, credit_kind, credit_id, amount, reason, game_id, created_at, note)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			e.From.Kind.String(), e.From.ID, e.To.Kind.String(), e.To.ID, e.Amount, string(e.Reason), game, at, note)
		if err != nil {
			return err
		}
		if err := addBalance(ctx, q, e.From, -e.Amount); err != nil {
			return fmt.Errorf("%s of %d from %s: %w", e.Reason, e.Amount, e.From, err)
		}
		if err := addBalance(ctx, q, e.To, e.Amount); err != nil {
			return fmt.Errorf("%s of %d to %s: %w", e.Reason, e.Amount, e.To, err)
		}
	}
	return nil
}

// addBalance adds delta to account a's balance. (An UPDATE, then an INSERT
// for a new account: an upsert would check the CHECK against the inserted
// delta before noticing the conflict.)
func addBalance(ctx context.Context, q sqlx.ExecerContext, a chips.Account, delta int64) error {
	res, err := q.ExecContext(ctx, "UPDATE balances SET balance = balance + ? WHERE kind = ? AND id = ?",
		delta, a.Kind.String(), a.ID)
	var n int64
	if err == nil {
		n, err = res.RowsAffected()
	}
	if err == nil && n == 0 {
		_, err = q.ExecContext(ctx, "INSERT INTO balances (kind, id, balance) VALUES (?, ?, ?)", a.Kind.String(), a.ID, delta)
	}
	if broken(err) == CheckConstraint {
		return fmt.Errorf("%w: %s", chips.ErrInsufficientBalance, a)
	}
	if broken(err) == RangeConstraint {
		return fmt.Errorf("%w: %s", chips.ErrOverflow, a)
	}
	return err
}

// balanceOf reads account a's balance in q's transaction.
func balanceOf(ctx context.Context, q sqlx.QueryerContext, a chips.Account) (int64, error) {
	var n int64
	err := sqlx.GetContext(ctx, q, &n,
		"SELECT COALESCE((SELECT balance FROM balances WHERE kind = ? AND id = ?), 0)", a.Kind.String(), a.ID)
	return n, err
}

// LedgerTotals sums every balance by kind (see chips.Totals), for the
// conservation check: Users + Escrow + House + Sink == Issued. It also
// checks that the balances table agrees with the ledger's own sums.
func (s *Store) LedgerTotals(ctx context.Context) (chips.Totals, error) {
	var rows []struct {
		Kind    string `db:"kind"`
		Balance int64  `db:"balance"`
		Derived int64  `db:"derived"`
	}
	err := s.rdb.SelectContext(ctx, &rows, `SELECT b.kind, b.balance,
		COALESCE((SELECT SUM(amount) FROM ledger WHERE credit_kind = b.kind AND credit_id = b.id), 0)
		- COALESCE((SELECT SUM(amount) FROM ledger WHERE debit_kind = b.kind AND debit_id = b.id), 0) AS derived
		FROM balances b`)
	if err != nil {
		return chips.Totals{}, fmt.Errorf("store: ledger totals: %w", err)
	}
	var t chips.Totals
	for _, r := range rows {
		if r.Balance != r.Derived {
			return t, fmt.Errorf("store: ledger totals: a %s balance is %d, its entries sum to %d", r.Kind, r.Balance, r.Derived)
		}
		k, err := chips.ParseKind(r.Kind)
		if err != nil {
			return t, fmt.Errorf("store: ledger totals: %w", err)
		}
		switch k {
		case chips.User:
			t.Users += r.Balance
		case chips.Escrow:
			t.Escrow += r.Balance
		case chips.House:
			t.House += r.Balance
		case chips.Sink:
			t.Sink += r.Balance
		case chips.Issued:
			t.Issued -= r.Balance
		}
	}
	return t, nil
}
