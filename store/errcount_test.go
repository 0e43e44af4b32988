package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"satranc/engine/account"
)

// TestErrorsCountsDatabaseFailures: a missing row and a refused duplicate
// are not database errors; a statement on a closed database is.
func TestErrorsCountsDatabaseFailures(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustCreateUser(t, s, "ayse")
	if _, err := s.CreateUser(ctx, account.NewUser{Name: "ayse", PasswordHash: "x", Language: "tr"}); err == nil {
		t.Fatal("a second ayse was created")
	}
	if _, err := s.UserByName(ctx, "nobody"); err == nil {
		t.Fatal("UserByName(nobody) found someone")
	}
	if n := s.Errors(); n != 0 {
		t.Errorf("Errors() after a refusal and a missing row = %d, want 0", n)
	}

	closed, err := Open(ctx, filepath.Join(t.TempDir(), "closed.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := closed.UserByName(ctx, "ayse"); err == nil {
		t.Fatal("UserByName on a closed database succeeded")
	}
	if _, err := closed.CreateUser(ctx, account.NewUser{Name: "bora", PasswordHash: "x", Language: "tr"}); err == nil {
		t.Fatal("CreateUser on a closed database succeeded")
	}
	if n := closed.Errors(); n != 2 {
		t.Errorf("Errors() after two statements on a closed database = %d, want 2", n)
	}
}

// TestErrorsLeavesOutAbandonedTransactions: a transaction whose context
// ends (its client went away) is rolled back by database/sql, and what is
// done with it then fails with sql.ErrTxDone. That is the caller giving
// up, not a failure of the database: the error tells the context's end,
// and it is not counted.
func TestErrorsLeavesOutAbandonedTransactions(t *testing.T) {
	s, _ := mustOpen(t)
	ctx, cancel := context.WithCancel(context.Background())
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	// database/sql rolls the transaction back on a goroutine of its own; a
	// statement with a context that has not ended tells when it has.
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err = tx.ExecContext(context.Background(), "SELECT 1")
		if err != nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if !errors.Is(err, sql.ErrTxDone) || !errors.Is(err, context.Canceled) {
		t.Errorf("a statement after the rollback: %v, want sql.ErrTxDone and context.Canceled", err)
	}
	if err := tx.Commit(); !errors.Is(err, context.Canceled) {
		t.Errorf("Commit after the rollback: %v, want context.Canceled", err)
	}
	if n := s.Errors(); n != 0 {
		t.Errorf("Errors() after an abandoned transaction = %d, want 0", n)
	}
}
