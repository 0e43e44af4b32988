package app

import (
	"context"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
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

// TestClusterNeedsPostgres: a node of a cluster (--node-addr) shares one
// PostgreSQL database with the others; on a SQLite file it refuses to
// start, saying so, before it listens.
func TestClusterNeedsPostgres(t *testing.T) {
	node, err := url.Parse("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{DBPath: filepath.Join(t.TempDir(), "node.db"), NodeAddr: node, Logger: slog.New(slog.DiscardHandler)}
	err = Run(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "PostgreSQL") {
		t.Fatalf("Run with --node-addr on a SQLite file = %v, want a refusal naming PostgreSQL", err)
	}
}
