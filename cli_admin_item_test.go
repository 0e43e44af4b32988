package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"satranc/engine/account"
	"satranc/engine/fairplay"
	"satranc/store"
)

// TestAdminItem gives a member a cosmetic item on a real database file,
// once, and refuses unknown items and members without changing anything.
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
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"zeynep", "board_iznik", "tournament", "mix-up"}, 0, "gave board_iznik to Zeynep"},
		{[]string{"Zeynep", "board_iznik", "again"}, 0, "Zeynep already owns board_iznik"},
		{[]string{"Zeynep", "board_walnut", "standard"}, 0, "already owns"},
		{[]string{"Zeynep", "board_pink", "why"}, 2, ""},
		{[]string{"Nobody", "board_iznik", "why"}, 1, ""},
		{[]string{"Zeynep", "frame_cup_gold", " "}, 2, ""},
	} {
		var out, errOut bytes.Buffer
		code := grantItemCmd(ctx, st, fairplay.NewService(st, nil), tc.args, &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.out) {
			t.Errorf("admin item %q = %d, %q (stderr %q); want %d, %q", tc.args, code, out.String(), errOut.String(), tc.code, tc.out)
		}
	}
	// Through satranc admin, on the database file.
	var out, errOut bytes.Buffer
	if code := runAdmin(ctx, []string{"--db", db, "item", "Zeynep", "frame_league_gold", "league", "fix"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "gave frame_league_gold to Zeynep") {
		t.Errorf("satranc admin item = %d, %q (stderr %q)", code, out.String(), errOut.String())
	}
	inv, err := st.Inventory(ctx, u.ID)
	if err != nil || !slices.Equal(inv.Granted, []string{"board_iznik", "frame_league_gold"}) {
		t.Errorf("inventory = %v, %v; want board_iznik and frame_league_gold", inv.Granted, err)
	}
}
