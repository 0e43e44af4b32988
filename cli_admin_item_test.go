package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"satranc/engine/account"
	"satranc/store"
)

// TestAdminItem gives a member a cosmetic item through satranc admin, on a
// real database file (the command's own cases are in handlers/admincli).
func TestAdminItem(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "admin.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, err := st.CreateUser(ctx, account.NewUser{Name: "Zeynep", PasswordHash: "x", Language: "tr"})
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := runAdmin(ctx, []string{"--db", db, "item", "Zeynep", "frame_league_gold", "league", "fix"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "gave frame_league_gold to Zeynep") {
		t.Errorf("satranc admin item = %d, %q (stderr %q)", code, out.String(), errOut.String())
	}
	inv, err := st.Inventory(ctx, u.ID)
	if err != nil || !slices.Equal(inv.Granted, []string{"frame_league_gold"}) {
		t.Errorf("inventory = %v, %v; want frame_league_gold", inv.Granted, err)
	}
}
