package store

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"satranc/engine/account"
)

// hash32 returns a 32-byte stand-in for a token hash.
func hash32(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }

func TestSessions(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	u := mustCreateUser(t, s, "ali")

	sess := account.StoredSession{TokenHash: hash32(1), UserID: u.ID, Created: now, Expires: now.Add(time.Hour)}
	if err := s.CreateSession(ctx, sess); err != nil {
		t.Fatalf("CreateSession = %v", err)
	}
	if got, err := s.UserBySession(ctx, hash32(1)); err != nil || got != u {
		t.Errorf("UserBySession = %+v, %v; want %+v", got, err, u)
	}
	if _, err := s.UserBySession(ctx, hash32(2)); !errors.Is(err, ErrNotFound) || !errors.Is(err, account.ErrNotFound) {
		t.Errorf("UserBySession(unknown) = %v, want ErrNotFound", err)
	}
	if err := s.CreateSession(ctx, sess); !errors.Is(err, ErrConflict) {
		t.Errorf("CreateSession(same hash) = %v, want ErrConflict", err)
	}

	// At the expiry instant the session is over.
	now = now.Add(time.Hour)
	if _, err := s.UserBySession(ctx, hash32(1)); !errors.Is(err, ErrNotFound) {
		t.Errorf("UserBySession(expired) = %v, want ErrNotFound", err)
	}
	// A new session sweeps the expired one away.
	if err := s.CreateSession(ctx, account.StoredSession{TokenHash: hash32(3), UserID: u.ID, Created: now, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.Get(&n, "SELECT COUNT(*) FROM sessions"); err != nil || n != 1 {
		t.Errorf("sessions after sweep = %d (err %v), want 1", n, err)
	}

	if err := s.DeleteSession(ctx, hash32(3)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserBySession(ctx, hash32(3)); !errors.Is(err, ErrNotFound) {
		t.Errorf("UserBySession(deleted) = %v, want ErrNotFound", err)
	}
	if err := s.DeleteSession(ctx, hash32(3)); err != nil {
		t.Errorf("DeleteSession(missing) = %v, want nil", err)
	}
}

func TestSessionOfMissingUser(t *testing.T) {
	s, _ := mustOpen(t)
	now := s.Now()
	err := s.CreateSession(context.Background(), account.StoredSession{TokenHash: hash32(1), UserID: 99, Created: now, Expires: now.Add(time.Hour)})
	if err == nil {
		t.Error("CreateSession(missing user) = nil, want a foreign key error")
	}
}

// BenchmarkUserBySession reads a session's user, as every request of a
// signed-in player does: after the first, from the store's sessionCache.
func BenchmarkUserBySession(b *testing.B) {
	s, _ := mustOpen(b)
	ctx := context.Background()
	now := time.Now()
	u := mustCreateUser(b, s, "ali")
	if err := s.CreateSession(ctx, account.StoredSession{TokenHash: hash32(1), UserID: u.ID, Created: now, Expires: now.Add(time.Hour)}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.UserBySession(ctx, hash32(1)); err != nil {
			b.Fatal(err)
		}
	}
}
