package admincli

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

// TestGrantItem gives a member a cosmetic item on a real database, once,
// and refuses unknown items and members without changing anything.
func TestGrantItem(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "admin.db"))
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
	inv, err := st.Inventory(ctx, u.ID)
	if err != nil || !slices.Equal(inv.Granted, []string{"board_iznik"}) {
		t.Errorf("inventory = %v, %v; want board_iznik", inv.Granted, err)
	}
}

func TestArgsOK(t *testing.T) {
	for _, tc := range []struct {
		cmd  []string
		want bool
	}{
		{nil, false},
		{[]string{"reports"}, true},
		{[]string{"reports", "x"}, false},
		{[]string{"void", "7"}, true},
		{[]string{"chat"}, false},
		{[]string{"grant", "ayse", "10"}, false},
		{[]string{"grant", "ayse", "10", "prize"}, true},
		{[]string{"item", "ayse", "board_iznik", "gift", "for", "you"}, true},
		{[]string{"vip", "ayse", "on"}, true},
		{[]string{"vip", "ayse"}, false},
	} {
		if got := ArgsOK(tc.cmd); got != tc.want {
			t.Errorf("ArgsOK(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}
