package store

import (
	"context"
	"errors"
	"testing"

	"satranc/engine/account"
)

// TestSaveSound: a new member hears the game page's sounds; SaveSound
// turns them off and on again, every user lookup reads the choice, and it
// leaves the rest of the account (profile, look) as it was.
func TestSaveSound(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	u := mustCreateUser(t, s, "ayse")
	other := mustCreateUser(t, s, "mehmet")
	if u.SoundOff {
		t.Fatalf("new user: SoundOff = true, want the sounds on")
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
		{"UpdateProfile", func() (account.User, error) {
			return s.UpdateProfile(ctx, u.ID, account.Profile{Language: "tr", Gender: account.GenderUnspecified})
		}},
	}
	for _, on := range []bool{false, true, false} {
		if err := s.SaveSound(ctx, u.ID, on); err != nil {
			t.Fatalf("SaveSound(%v) = %v", on, err)
		}
		for _, l := range lookups {
			got, err := l.get()
			if err != nil || got.SoundOff != !on {
				t.Errorf("after SaveSound(%v): %s: SoundOff = %v, %v; want %v", on, l.name, got.SoundOff, err, !on)
			}
			if err == nil && (got.Name != "ayse" || got.Language != "tr" || got.Look != u.Look) {
				t.Errorf("after SaveSound(%v): %s = %+v, the rest of the account changed", on, l.name, got)
			}
		}
	}
	if got, err := s.UserByID(ctx, other.ID); err != nil || got.SoundOff {
		t.Errorf("another member: SoundOff = %v, %v; want false", got.SoundOff, err)
	}
	if err := s.SaveSound(ctx, u.ID+100, false); !errors.Is(err, ErrNotFound) {
		t.Errorf("SaveSound(unknown user) = %v, want ErrNotFound", err)
	}
}

// TestSoundColumnChecked: the column holds only 0 and 1 (STRICT with a
// CHECK), so no other value can be read as "on".
func TestSoundColumnChecked(t *testing.T) {
	s, _ := mustOpen(t)
	if onPostgres(t) {
		t.Skip("a BOOLEAN column on PostgreSQL")
	}
	u := mustCreateUser(t, s, "ayse")
	if _, err := s.db.Exec("UPDATE users SET sound_off = 2 WHERE id = ?", u.ID); err == nil {
		t.Errorf("sound_off = 2 was accepted")
	}
}
