package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/store"
)

// TestRunAdmin sets VIP and restriction and grants chips on a real
// database file, and refuses bad input without changing anything.
func TestRunAdmin(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "admin.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateUser(ctx, account.NewUser{Name: "Zeynep", PasswordHash: "x", Language: "tr"})
	if err != nil {
		t.Fatal(err)
	}
	before, err := st.Balance(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	gameID, err := st.CreateGame(ctx, play.GameRecord{
		Kind: play.Private, White: game.Human(u.ID), Control: clock.MustParse("3+2"),
		Status: game.Waiting, InviteToken: "tok", CreatedAt: time.Now(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddChatMessage(ctx, play.ChatMessage{GameID: gameID, User: u.ID, Body: "iyi oyunlar", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	admin := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := runAdmin(ctx, append([]string{"--db", db}, args...), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	tests := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"vip", "Zeynep", "on"}, 0, "vip Zeynep: on"},
		{[]string{"restrict", "zeynep", "on"}, 0, "restrict zeynep: on"},
		{[]string{"grant", "Zeynep", "2500"}, 0, "granted 2500 chips"},
		{[]string{"grant", "Zeynep", "-5"}, 2, ""},
		{[]string{"grant", "Zeynep", "lots"}, 2, ""},
		{[]string{"vip", "Zeynep", "maybe"}, 2, ""},
		{[]string{"vip", "Nobody", "on"}, 1, ""},
		{[]string{"grant", "Nobody", "10"}, 1, ""},
		{[]string{"dance", "Zeynep", "on"}, 2, ""},
		{[]string{"chat", strconv.FormatInt(gameID, 10)}, 0, "Zeynep: iyi oyunlar"},
		{[]string{"chat", "12345"}, 0, ""},
		{[]string{"chat", "x"}, 2, ""},
		{[]string{"chat"}, 2, ""},
	}
	for _, tc := range tests {
		code, out, errOut := admin(tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) {
			t.Errorf("admin %q = %d, %q (stderr %q); want %d, %q", tc.args, code, out, errOut, tc.code, tc.out)
		}
	}
	if code, _, _ := runAdminOn(ctx, filepath.Join(t.TempDir(), "missing.db")); code != 1 {
		t.Errorf("admin on a missing database = %d, want 1", code)
	}

	st, err = store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.LobbyPlayer(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !p.VIP || !p.Restricted {
		t.Errorf("after admin: VIP %v, restricted %v; want both", p.VIP, p.Restricted)
	}
	if after, err := st.Balance(ctx, u.ID); err != nil || after != before+2500 {
		t.Errorf("balance %d -> %d (%v), want +2500", before, after, err)
	}
	totals, err := st.LedgerTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !totals.Conserved() {
		t.Errorf("ledger after grants does not balance: %+v", totals)
	}
}

func runAdminOn(ctx context.Context, db string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := runAdmin(ctx, []string{"--db", db, "vip", "x", "on"}, &out, &errOut)
	return code, out.String(), errOut.String()
}
