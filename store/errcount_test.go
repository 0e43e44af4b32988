package store

import (
	"context"
	"path/filepath"
	"testing"

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
