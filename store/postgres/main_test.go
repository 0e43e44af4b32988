package postgres

import (
	"context"
	"testing"
	"time"

	"satranc/store"
	"satranc/store/pgtest"
)

// The package's tests need a PostgreSQL server: the first test that
// needs one starts it in a temporary folder, and TestMain stops it.
// Without PostgreSQL installed they skip. The store's own tests run on
// PostgreSQL too (store/postgres_test.go).
var pg pgtest.Shared

func TestMain(m *testing.M) { pg.Main(m) }

// mustOpen opens a fresh database for tb, closed when tb ends.
func mustOpen(tb testing.TB) (*Store, string) {
	tb.Helper()
	url := pg.NewDatabase(tb)
	s, err := Open(context.Background(), url)
	if err != nil {
		tb.Fatalf("Open(%s) = %v", url, err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("Close() = %v", err)
		}
	})
	return s, url
}

// gameT0 is when the tests' games start.
var gameT0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// mustUsers adds users 1 to n.
func mustUsers(tb testing.TB, s *Store, n int) {
	tb.Helper()
	for i := 1; i <= n; i++ {
		_, err := s.db.Exec(`INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, 'x', ?)`,
			i, "user"+string(rune('a'+i)), store.FormatTime(gameT0))
		if err != nil {
			tb.Fatal(err)
		}
	}
}
