package store

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"satranc/engine/account"
	"satranc/engine/cosmetics"
)

func TestGrantItemIdempotent(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	u := mustCreateUser(t, s, "ayse")
	other := mustCreateUser(t, s, "bora")

	for i, want := range []bool{true, false, false} {
		granted, err := s.GrantItem(ctx, u.ID, "frame_cup_gold", "daily_cup 2026-11-29 1st")
		if err != nil || granted != want {
			t.Fatalf("GrantItem #%d = %v, %v; want %v, nil", i+1, granted, err, want)
		}
	}
	if _, err := s.GrantItem(ctx, u.ID, "board_iznik", "admin"); err != nil {
		t.Fatal(err)
	}
	inv, err := s.Inventory(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(inv.Granted)
	if want := []string{"board_iznik", "frame_cup_gold"}; !slices.Equal(inv.Granted, want) {
		t.Errorf("Inventory = %v, want %v", inv.Granted, want)
	}
	if inv, err := s.Inventory(ctx, other.ID); err != nil || len(inv.Granted) != 0 {
		t.Errorf("Inventory of another user = %v, %v; want nothing", inv.Granted, err)
	}
	var n int
	if err := s.db.Get(&n, "SELECT COUNT(*) FROM user_items"); err != nil || n != 2 {
		t.Errorf("user_items has %d rows (%v), want 2", n, err)
	}
}

func TestGrantItemRefusals(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	u := mustCreateUser(t, s, "ayse")
	long := string(make([]byte, 201))
	for _, tc := range []struct {
		name   string
		user   int64
		item   string
		reason string
		want   error
	}{
		{"unknown item", u.ID, "frame_platinum", "admin", cosmetics.ErrUnknownItem},
		{"no reason", u.ID, "frame_cup_gold", "", ErrInvalidReason},
		{"long reason", u.ID, "frame_cup_gold", long, ErrInvalidReason},
		{"unknown user", u.ID + 100, "frame_cup_gold", "admin", ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if granted, err := s.GrantItem(ctx, tc.user, tc.item, tc.reason); !errors.Is(err, tc.want) || granted {
				t.Errorf("GrantItem = %v, %v; want %v", granted, err, tc.want)
			}
		})
	}
	// The limit counts characters, as the CHECK's length() does.
	if granted, err := s.GrantItem(ctx, u.ID, "board_iznik", strings.Repeat("ş", 200)); err != nil || !granted {
		t.Errorf("GrantItem(reason of 200 Turkish letters) = %v, %v; want true, nil", granted, err)
	}
	if _, err := s.db.Exec("DELETE FROM user_items"); err != nil {
		t.Fatal(err)
	}
	// A standard item is owned already: no row, no error.
	if granted, err := s.GrantItem(ctx, u.ID, "board_walnut", "admin"); err != nil || granted {
		t.Errorf("GrantItem(standard) = %v, %v; want false, nil", granted, err)
	}
	var n int
	if err := s.db.Get(&n, "SELECT COUNT(*) FROM user_items"); err != nil || n != 0 {
		t.Errorf("user_items has %d rows (%v), want 0", n, err)
	}
}

func TestSaveLookReachesEveryUserLookup(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	u := mustCreateUser(t, s, "ayse")
	if u.Look != cosmetics.DefaultLook() {
		t.Errorf("new user's look = %+v, want the default", u.Look)
	}
	look := cosmetics.Look{Board: "board_sea", Pieces: "pieces_flat", Frame: "frame_none"}
	if err := s.SaveLook(ctx, u.ID, look); err != nil {
		t.Fatal(err)
	}
	tokenHash := []byte("0123456789abcdef0123456789abcdef")
	if err := s.CreateSession(ctx, account.StoredSession{TokenHash: tokenHash, UserID: u.ID, Created: s.Now(), Expires: s.Now().Add(3600e9)}); err != nil {
		t.Fatal(err)
	}
	lookups := []struct {
		name string
		get  func() (account.User, error)
	}{
		{"UserByID", func() (account.User, error) { return s.UserByID(ctx, u.ID) }},
		{"UserByName", func() (account.User, error) { return s.UserByName(ctx, "AYSE") }},
		{"UserBySession", func() (account.User, error) { return s.UserBySession(ctx, tokenHash) }},
		{"Credentials", func() (account.User, error) { c, err := s.Credentials(ctx, "ayse"); return c.User, err }},
	}
	for _, l := range lookups {
		if got, err := l.get(); err != nil || got.Look != look {
			t.Errorf("%s: look = %+v, %v; want %+v", l.name, got.Look, err, look)
		}
	}
	if err := s.SaveLook(ctx, u.ID+100, look); !errors.Is(err, ErrNotFound) {
		t.Errorf("SaveLook(unknown user) = %v, want ErrNotFound", err)
	}
	// An ID the catalogue no longer knows reads as the default.
	if _, err := s.db.Exec("UPDATE users SET frame = 'frame_retired' WHERE id = ?", u.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := s.UserByID(ctx, u.ID); err != nil || got.Look.Frame != "frame_none" || got.Look.Board != "board_sea" {
		t.Errorf("look with a retired frame = %+v, %v", got.Look, err)
	}
}

func TestChooseThroughStore(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	u := mustCreateUser(t, s, "ayse")
	svc := cosmetics.NewService(s)
	gold := cosmetics.Look{Board: "board_classic", Pieces: "pieces_standard", Frame: "frame_cup_gold"}
	if err := svc.Choose(ctx, u.ID, gold); !errors.Is(err, cosmetics.ErrNotOwned) {
		t.Fatalf("Choose(gold frame, not owned) = %v, want ErrNotOwned", err)
	}
	if got, _ := s.UserByID(ctx, u.ID); got.Look != cosmetics.DefaultLook() {
		t.Errorf("after a refused choice the look is %+v, want unchanged", got.Look)
	}
	if _, err := s.GrantItem(ctx, u.ID, "frame_cup_gold", "admin"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Choose(ctx, u.ID, gold); err != nil {
		t.Fatalf("Choose(gold frame, granted) = %v", err)
	}
	if got, _ := s.UserByID(ctx, u.ID); got.Look != gold {
		t.Errorf("look = %+v, want %+v", got.Look, gold)
	}
}
