package main

import (
	"bytes"
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/invisible"
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
	// Stored raw, as before CleanChat stripped text-direction characters:
	// the command prints them escaped.
	if err := st.AddChatMessage(ctx, play.ChatMessage{GameID: gameID, User: u.ID, Body: "abc\u202Edef\u200B", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	quick, _, err := st.CreatePublicGame(ctx, play.GameRecord{Kind: play.Quick, White: game.Human(u.ID), Black: game.Bot(game.Easy),
		Control: clock.MustParse("3+2"), Status: game.Active, CreatedAt: time.Now(), StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.FinishGame(ctx, quick, play.Ending{Status: game.Finished,
		Outcome: game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	won, err := st.Stats(ctx, u.ID)
	if err != nil || won.Rating == 1200 {
		t.Fatalf("Stats after a rated win = %+v, %v", won, err)
	}
	if err := st.ReportPlayer(ctx, quick, u.ID, "too strong for a beginner"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// A reason stored before ParseReason stripped text-direction
	// characters: the command prints it escaped.
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, "UPDATE reports SET reason = reason || ?", "\u2066"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	voidArg := strconv.FormatInt(quick, 10)

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
		{[]string{"grant", "Zeynep", "2500", "lost", "in", "a", "server", "crash"}, 0, "granted 2500 chips"},
		{[]string{"grant", "Zeynep", "2500"}, 2, ""}, // no reason
		{[]string{"admin", "Zeynep", "on"}, 0, "admin Zeynep: on"},
		{[]string{"admin", "Zeynep", "off"}, 0, "admin Zeynep: off"},
		{[]string{"void", strconv.FormatInt(gameID, 10)}, 1, ""}, // not finished
		{[]string{"void", voidArg}, 0, "voided game"},
		{[]string{"void", voidArg}, 1, ""}, // once
		{[]string{"void", "x"}, 2, ""},
		{[]string{"reports"}, 0, "game " + voidArg + ": Zeynep reports computer: too strong for a beginner\\u2066\n"},
		{[]string{"reports", "x"}, 2, ""},
		{[]string{"grant", "Zeynep", "-5", "why"}, 2, ""},
		{[]string{"grant", "Zeynep", "lots", "why"}, 2, ""},
		{[]string{"vip", "Zeynep", "maybe"}, 2, ""},
		{[]string{"vip", "Nobody", "on"}, 1, ""},
		{[]string{"grant", "Nobody", "10", "why"}, 1, ""},
		{[]string{"dance", "Zeynep", "on"}, 2, ""},
		{[]string{"chat", strconv.FormatInt(gameID, 10)}, 0, "Zeynep: iyi oyunlar"},
		{[]string{"chat", strconv.FormatInt(gameID, 10)}, 0, "Zeynep: abc\\u202edef\\u200b\n"},
		{[]string{"chat", "12345"}, 0, ""},
		{[]string{"chat", "x"}, 2, ""},
		{[]string{"chat"}, 2, ""},
	}
	for _, tc := range tests {
		code, out, errOut := admin(tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) {
			t.Errorf("admin %q = %d, %q (stderr %q); want %d, %q", tc.args, code, out, errOut, tc.code, tc.out)
		}
		if strings.ContainsFunc(out, invisible.Is) {
			t.Errorf("admin %q printed an invisible character raw: %q", tc.args, out)
		}
	}
	if code, _, _ := runAdminOn(ctx, filepath.Join(t.TempDir(), "missing.db")); code != 1 {
		t.Errorf("admin on a missing database = %d, want 1", code)
	}
	// A PostgreSQL URL is no file: the command tries the server (here
	// none listens) instead of refusing the "path".
	code, _, errOut := runAdminOn(ctx, "postgres://127.0.0.1:1/satranc?connect_timeout=2")
	if code != 1 || strings.Contains(errOut, "no such file") {
		t.Errorf("admin on an unreachable PostgreSQL = %d, %q; want 1 and a connection error", code, errOut)
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
	if stats, err := st.Stats(ctx, u.ID); err != nil || stats.Rating != 1200 || stats.RatedGames != 0 || stats.Wins != 0 {
		t.Errorf("after the void: %+v, %v; want the rating and record before the game", stats, err)
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

// TestAdminGrantAmounts: `satranc admin grant` refuses, with a clear
// message and before writing anything, an amount that is not a whole
// number from 1 to fairplay.MaxGrant (past the int64 range included), and a
// grant that would take a balance past the largest the ledger holds; never
// the driver's "cannot store REAL value". A grant that fits goes through.
func TestAdminGrantAmounts(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "grant.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateUser(ctx, account.NewUser{Name: "Zeynep", PasswordHash: "x", Language: "tr"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateUser(ctx, account.NewUser{Name: "Kral", PasswordHash: "x", Language: "tr"}); err != nil {
		t.Fatal(err)
	}
	// Issue all but 1,001 of the chips the issuer's balance can go down to
	// (MinInt64 = −MaxInt64 − 1, minus everything issued): Kral gets them.
	// The store takes this; only the command and the pages bound a grant.
	kral, err := st.UserByName(ctx, "Kral")
	if err != nil {
		t.Fatal(err)
	}
	had, err := st.Balance(ctx, kral.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.GrantChips(ctx, "Kral", math.MaxInt64-1000-2*had, "test"); err != nil {
		t.Fatal(err)
	}
	st.Close()

	admin := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := runAdmin(ctx, append([]string{"--db", db}, args...), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	balances := func() (int64, int64) {
		t.Helper()
		st, err := store.Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		z, _ := st.UserByName(ctx, "Zeynep")
		a, err := st.Balance(ctx, z.ID)
		if err != nil {
			t.Fatal(err)
		}
		b, err := st.Balance(ctx, kral.ID)
		if err != nil {
			t.Fatal(err)
		}
		return a, b
	}
	z0, k0 := balances()
	usage := "want a whole number of chips from 1 to 10000000"
	for _, tc := range []struct {
		name, amount string
		code         int
		stderr       string
	}{
		{"Zeynep", "0", 2, usage},
		{"Zeynep", "-1", 2, usage},
		{"Zeynep", "-99999999999999999999", 2, usage},
		{"Zeynep", "abc", 2, usage},
		{"Zeynep", "1.5", 2, usage},
		{"Zeynep", "1e6", 2, usage},
		{"Zeynep", "", 2, usage},
		{"Zeynep", "10000001", 2, usage},
		{"Zeynep", "9223372036854775807", 2, usage},
		{"Zeynep", "9223372036854775808", 2, usage},
		{"Zeynep", "99999999999999999999999", 2, usage},
		{"Kral", "1002", 1, "would take a balance past the largest the ledger holds"},
		{"Kral", "10000000", 1, "would take a balance past the largest the ledger holds"},
	} {
		code, out, errOut := admin("grant", tc.name, tc.amount, "why")
		if code != tc.code || out != "" || !strings.Contains(errOut, tc.stderr) || strings.Contains(errOut, "REAL") {
			t.Errorf("admin grant %s %q = %d, %q, %q; want %d and %q", tc.name, tc.amount, code, out, errOut, tc.code, tc.stderr)
		}
	}
	if z, k := balances(); z != z0 || k != k0 {
		t.Errorf("refused grants changed the balances: %d, %d; were %d, %d", z, k, z0, k0)
	}
	top := "balance " + strconv.FormatInt(k0+1001, 10)
	if code, out, errOut := admin("grant", "Kral", "1001", "to the top"); code != 0 || !strings.Contains(out, top) {
		t.Errorf("admin grant Kral 1001 = %d, %q, %q; want %q", code, out, errOut, top)
	}
	// Everything an int64 holds is issued now: even the smallest grant to
	// anyone is refused, clearly.
	if code, _, errOut := admin("grant", "Zeynep", "1", "one more"); code != 1 || !strings.Contains(errOut, "past the largest") {
		t.Errorf("admin grant Zeynep 1 at the top = %d, %q", code, errOut)
	}
}
