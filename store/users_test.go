package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/cosmetics"
)

// mustCreateUser creates a user or fails the test.
func mustCreateUser(t testing.TB, s *Store, name string) account.User {
	t.Helper()
	u, err := s.CreateUser(context.Background(), account.NewUser{Name: name, PasswordHash: "hash-of-" + name, Language: "tr"})
	if err != nil {
		t.Fatalf("CreateUser(%q) = %v", name, err)
	}
	return u
}

func TestCreateUser(t *testing.T) {
	s, _ := mustOpen(t)
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return at }
	u := mustCreateUser(t, s, "Ayse_1990")
	// The first account of the database is its administrator.
	want := account.User{ID: u.ID, Name: "Ayse_1990", Language: "tr", Gender: account.GenderUnspecified, Admin: true, CreatedAt: at, Look: cosmetics.DefaultLook()}
	if u != want || u.ID == 0 {
		t.Errorf("CreateUser = %+v, want %+v", u, want)
	}
}

func TestCreateUserConflict(t *testing.T) {
	s, _ := mustOpen(t)
	mustCreateUser(t, s, "Ayse")
	for _, name := range []string{"Ayse", "ayse", "AYSE"} {
		_, err := s.CreateUser(context.Background(), account.NewUser{Name: name, PasswordHash: "x", Language: "en"})
		if !errors.Is(err, ErrConflict) || !errors.Is(err, account.ErrUsernameTaken) {
			t.Errorf("CreateUser(%q) = %v, want ErrConflict and account.ErrUsernameTaken", name, err)
		}
	}
	var n int
	if err := s.db.Get(&n, "SELECT COUNT(*) FROM users"); err != nil || n != 1 {
		t.Errorf("users = %d (err %v), want 1", n, err)
	}
}

func TestCreateUserOtherErrorIsNotConflict(t *testing.T) {
	s, _ := mustOpen(t)
	// The CHECK constraint on language fails: a constraint error, but not
	// a uniqueness one.
	_, err := s.CreateUser(context.Background(), account.NewUser{Name: "bob", PasswordHash: "x", Language: "xx"})
	if err == nil || errors.Is(err, ErrConflict) {
		t.Errorf("CreateUser(bad language) = %v, want a non-conflict error", err)
	}
}

func TestUserLookups(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	u := mustCreateUser(t, s, "Mehmet")

	for _, name := range []string{"Mehmet", "mehmet", "MEHMET"} {
		got, err := s.UserByName(ctx, name)
		if err != nil || got != u {
			t.Errorf("UserByName(%q) = %+v, %v; want %+v", name, got, err, u)
		}
	}
	if got, err := s.UserByID(ctx, u.ID); err != nil || got != u {
		t.Errorf("UserByID(%d) = %+v, %v; want %+v", u.ID, got, err, u)
	}
	cred, err := s.Credentials(ctx, "mehmet")
	if err != nil || cred.User != u || cred.PasswordHash != "hash-of-Mehmet" {
		t.Errorf("Credentials = %+v, %v", cred, err)
	}

	if _, err := s.UserByName(ctx, "nobody"); !errors.Is(err, ErrNotFound) || !errors.Is(err, account.ErrNotFound) {
		t.Errorf("UserByName(nobody) = %v, want ErrNotFound", err)
	}
	if _, err := s.UserByID(ctx, u.ID+1); !errors.Is(err, ErrNotFound) {
		t.Errorf("UserByID(missing) = %v, want ErrNotFound", err)
	}
	if _, err := s.Credentials(ctx, "nobody"); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("Credentials(nobody) = %v, want account.ErrNotFound", err)
	}
}

func TestUpdateProfile(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	u := mustCreateUser(t, s, "zeynep")
	got, err := s.UpdateProfile(ctx, u.ID, account.Profile{Language: "en", Gender: account.GenderFemale})
	if err != nil {
		t.Fatal(err)
	}
	if got.Language != "en" || got.Gender != account.GenderFemale || got.Name != "zeynep" {
		t.Errorf("UpdateProfile = %+v", got)
	}
	if again, _ := s.UserByID(ctx, u.ID); again != got {
		t.Errorf("UserByID after update = %+v, want %+v", again, got)
	}
	if _, err := s.UpdateProfile(ctx, u.ID+1, account.Profile{Language: "en"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("UpdateProfile(missing) = %v, want ErrNotFound", err)
	}
}
