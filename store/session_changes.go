package store

import (
	"context"
	"fmt"
	"time"
)

// changeSessions runs change, a write to what the sessions of user userID
// read, and records it in the log of changes (session_changes), in one
// transaction of the writer: every Store's cache of sessions, in this
// process or another, forgets that member's sessions once it reads the
// log (session_cache.go). This Store's own cache forgets them at once.
func (s *Store) changeSessions(ctx context.Context, userID int64, change func(tx *countedTx) error) error {
	defer s.sessions.forgetUser(userID) // after the commit: a read meanwhile is not kept
	return s.inTx(ctx, func(tx *countedTx) error {
		if err := change(tx); err != nil {
			return err
		}
		return s.noteSessionChange(ctx, tx, userID)
	})
}

// noteSessionChange records in tx that the sessions of user userID read
// something new.
func (s *Store) noteSessionChange(ctx context.Context, tx *countedTx, userID int64) error {
	if _, err := tx.ExecContext(ctx, "INSERT INTO session_changes (user_id, changed_at) VALUES (?, ?)", userID, s.now()); err != nil {
		return fmt.Errorf("log the change: %w", err)
	}
	return nil
}

// inTx runs fn in a transaction of the writer, which it commits if fn
// returns no error.
func (s *Store) inTx(ctx context.Context, fn func(tx *countedTx) error) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }() // a no-op after Commit
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// readSessionChanges reads the log of changes when the cache is due to
// (sessionCache.changesDue) and has it forget the sessions that changed.
// The read is done for every request to come: the client of the one that
// does it going away does not cut it short, which would have the cache
// forget every session.
func (s *Store) readSessionChanges(ctx context.Context, now time.Time) {
	since, due := s.sessions.changesDue(now)
	if !due {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sessionChangesTimeout)
	defer cancel()
	var users []int64
	err := s.rdb.SelectContext(ctx, &users,
		"SELECT DISTINCT user_id FROM session_changes WHERE changed_at >= ?", formatTime(since))
	s.sessions.changesRead(users, now, err)
}

// pruneSessionChanges deletes the changes older than sessionChangesKept.
func (s *Store) pruneSessionChanges(ctx context.Context, tx *countedTx) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM session_changes WHERE changed_at < ?",
		formatTime(s.Now().Add(-sessionChangesKept))); err != nil {
		return fmt.Errorf("prune the changes of sessions: %w", err)
	}
	return nil
}
