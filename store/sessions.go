package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"satranc/engine/account"
)

// CreateSession stores a session and deletes the expired ones of every
// user, in one transaction.
func (s *Store) CreateSession(ctx context.Context, sess account.StoredSession) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	defer func() { _ = tx.Rollback() }() // a no-op after Commit

	if _, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE expires_at <= ?", s.now()); err != nil {
		return fmt.Errorf("store: create session: expire: %w", err)
	}
	if err := s.pruneSessionChanges(ctx, tx); err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	_, err = tx.ExecContext(ctx,
		"INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
		sess.TokenHash, sess.UserID,
		sess.Created.UTC().Format(timeLayout), sess.Expires.UTC().Format(timeLayout))
	if broken(err) == UniqueConstraint {
		return fmt.Errorf("store: create session: %w", ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("store: create session for user %d: %w", sess.UserID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	return nil
}

// UserBySession returns the user of the session whose token hashes to
// tokenHash. An unknown or expired session (by s.Now) matches both
// ErrNotFound and account.ErrNotFound. A session read less than
// sessionCacheFresh ago, and not changed since, is answered from
// s.sessions (session_cache.go).
func (s *Store) UserBySession(ctx context.Context, tokenHash []byte) (account.User, error) {
	now := s.Now()
	s.readSessionChanges(ctx, now)
	u, ok, gen := s.sessions.get(tokenHash, now)
	if ok {
		return u, nil
	}
	var r userRow
	var expires string
	err := s.rdb.ScanRowContext(ctx, append(r.fields(), &expires), `SELECT `+userColumns+`,
		(SELECT expires_at FROM sessions WHERE token_hash = ?) FROM users
		WHERE id = (SELECT user_id FROM sessions WHERE token_hash = ? AND expires_at > ?)`,
		tokenHash, tokenHash, formatTime(now))
	if err != nil {
		return account.User{}, fmt.Errorf("store: session: %w", notFound(err))
	}
	if u, err = toUser(r); err != nil {
		return account.User{}, err
	}
	end, err := parseTime(expires)
	if err != nil {
		return account.User{}, fmt.Errorf("store: session of user %d: expires_at: %w", u.ID, err)
	}
	s.sessions.put(tokenHash, u, end, gen, now)
	return u, nil
}

// DeleteSession deletes the session whose token hashes to tokenHash. A
// missing session is no error.
func (s *Store) DeleteSession(ctx context.Context, tokenHash []byte) error {
	defer s.sessions.forget(tokenHash) // after the delete: a read meanwhile is not kept
	err := s.inTx(ctx, func(tx *countedTx) error {
		var userID int64
		err := tx.GetContext(ctx, &userID, "DELETE FROM sessions WHERE token_hash = ? RETURNING user_id", tokenHash)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err == nil {
			err = s.noteSessionChange(ctx, tx, userID)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}
