package app

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	"satranc/engine/account"
	"satranc/store"
)

// TestPromoteAdmin: serve --admin-user makes an existing account an
// administrator and starts all the same when the account does not exist.
func TestPromoteAdmin(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "serve.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, name := range []string{"first", "Second"} {
		if _, err := st.CreateUser(ctx, account.NewUser{Name: name, PasswordHash: "x", Language: "en"}); err != nil {
			t.Fatal(err)
		}
	}
	logger := slog.New(slog.DiscardHandler)
	if err := promoteAdmin(ctx, st, "second", logger); err != nil {
		t.Fatal(err)
	}
	if u, err := st.UserByName(ctx, "Second"); err != nil || !u.Admin {
		t.Errorf("after --admin-user second: %+v, %v", u, err)
	}
	if err := promoteAdmin(ctx, st, "nobody", logger); err != nil {
		t.Errorf("--admin-user nobody = %v, want a warning only", err)
	}
	if err := promoteAdmin(ctx, st, "", logger); err != nil {
		t.Errorf("no --admin-user = %v", err)
	}
}
