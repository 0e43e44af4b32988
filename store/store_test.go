package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mustOpen opens a fresh database file in a temporary directory and closes
// it when the test ends; it returns the store and the file's path. Under
// TestPostgres, or with SATRANC_TEST_DB=postgres, it opens a fresh
// PostgreSQL database instead, and the path is its URL (postgres_test.go).
func mustOpen(tb testing.TB) (*Store, string) {
	tb.Helper()
	if onPostgres(tb) {
		return mustOpenAt(tb, postgresDatabase(tb))
	}
	return mustOpenSQLite(tb)
}

// mustOpenSQLite is mustOpen on SQLite, whatever the test's database: for
// the tests of what only SQLite has (the file, its pragmas, its backup).
func mustOpenSQLite(tb testing.TB) (*Store, string) {
	tb.Helper()
	return mustOpenAt(tb, filepath.Join(tb.TempDir(), "test.db"))
}

// mustOpenAt opens the database at path (openAt) and closes it when the
// test ends.
func mustOpenAt(tb testing.TB, path string) (*Store, string) {
	tb.Helper()
	s, err := openAt(context.Background(), path)
	if err != nil {
		tb.Fatalf("Open(%s) = %v", path, err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("Close() = %v", err)
		}
	})
	return s, path
}

// openAt opens the database at path again, as mustOpen did: a SQLite
// file, or a PostgreSQL URL.
func openAt(ctx context.Context, path string) (*Store, error) {
	if strings.Contains(path, "://") {
		return OpenPostgres(ctx, path)
	}
	return Open(ctx, path)
}

// appliedMigrations returns the recorded migrations as "version name" lines.
func appliedMigrations(t *testing.T, s *Store) []string {
	t.Helper()
	var rows []struct {
		Version int    `db:"version"`
		Name    string `db:"name"`
	}
	if err := s.db.Select(&rows, "SELECT version, name FROM schema_migrations ORDER BY version"); err != nil {
		t.Fatalf("select schema_migrations: %v", err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%d %s", r.Version, r.Name))
	}
	return out
}

func TestOpenMigratesFreshDatabase(t *testing.T) {
	s, path := mustOpenSQLite(t)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database file: %v", err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || ms[0].name != "0001_init.sql" {
		t.Fatalf("migrations() = %v, want 0001_init.sql first", ms)
	}
	v, err := s.SchemaVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := ms[len(ms)-1].version; v != want {
		t.Errorf("SchemaVersion() = %d, want %d", v, want)
	}
	if got := appliedMigrations(t, s); len(got) != len(ms) {
		t.Errorf("schema_migrations has %d rows, want %d", len(got), len(ms))
	}
	for _, table := range []string{"users", "games", "moves", "schema_migrations"} {
		var n int
		err := s.db.Get(&n, "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", table)
		if err != nil || n != 1 {
			t.Errorf("table %s: count %d, err %v", table, n, err)
		}
	}
}

func TestOpenTwiceAppliesNothingAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "test.db")
	ctx := context.Background()

	s1, err := openAt(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	first := appliedMigrations(t, s1)
	var appliedAt string
	if err := s1.db.Get(&appliedAt, "SELECT applied_at FROM schema_migrations WHERE version = 1"); err != nil {
		t.Fatal(err)
	}
	// Keep some data to prove the second Open does not recreate tables.
	if _, err := s1.db.Exec(`INSERT INTO users (username, password_hash, created_at) VALUES ('ayşe', 'x', ?)`, s1.now()); err != nil {
		t.Fatal(err)
	}
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}

	s2, err := openAt(ctx, path)
	if err != nil {
		t.Fatalf("second Open = %v", err)
	}
	defer s2.Close()
	second := appliedMigrations(t, s2)
	if strings.Join(first, ",") != strings.Join(second, ",") {
		t.Errorf("migrations after reopen = %v, want %v", second, first)
	}
	var again string
	if err := s2.db.Get(&again, "SELECT applied_at FROM schema_migrations WHERE version = 1"); err != nil {
		t.Fatal(err)
	}
	if again != appliedAt {
		t.Errorf("applied_at changed on reopen: %s, then %s", appliedAt, again)
	}
	var users int
	if err := s2.db.Get(&users, "SELECT COUNT(*) FROM users"); err != nil || users != 1 {
		t.Errorf("users after reopen = %d (err %v), want 1", users, err)
	}
}

func TestPragmas(t *testing.T) {
	s, _ := mustOpenSQLite(t)
	// Several connections at once, since the settings must hold for every
	// pooled connection, not just the first.
	s.db.SetMaxOpenConns(4)
	ctx := context.Background()
	conns := make([]interface{ Close() error }, 0, 3)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	tests := []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "5000"},
		// The writer's own checkpoint is the backstop of the checkpointer's
		// (checkpoint.go).
		{"wal_autocheckpoint", "10000"},
	}
	for i := range 3 {
		c, err := s.db.Connx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		for _, tc := range tests {
			var got string
			if err := c.GetContext(ctx, &got, "PRAGMA "+tc.pragma); err != nil {
				t.Fatalf("conn %d: PRAGMA %s: %v", i, tc.pragma, err)
			}
			if !strings.EqualFold(got, tc.want) {
				t.Errorf("conn %d: PRAGMA %s = %s, want %s", i, tc.pragma, got, tc.want)
			}
		}
	}
}

func TestForeignKeysEnforced(t *testing.T) {
	s, _ := mustOpenSQLite(t)
	_, err := s.db.Exec(`INSERT INTO moves (game_id, ply, uci, played_at) VALUES (42, 1, 'e2e4', ?)`, s.now())
	if err == nil || !strings.Contains(err.Error(), "FOREIGN KEY") {
		t.Errorf("insert move of a missing game: err = %v, want a FOREIGN KEY error", err)
	}
}

func TestOpenBadPath(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		path string
	}{
		{"missing directory", filepath.Join(dir, "no", "such", "dir", "x.db")},
		{"directory", dir},
		{"empty", ""},
		{"question mark", filepath.Join(dir, "x.db?mode=ro")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(context.Background(), tc.path)
			if err == nil {
				s.Close()
				t.Fatalf("Open(%q) = nil error, want one", tc.path)
			}
			if !strings.HasPrefix(err.Error(), "store: open") {
				t.Errorf("Open(%q) = %q, want a \"store: open\" prefix", tc.path, err)
			}
		})
	}
}

func TestOpenWrapsDriverError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "x.db")
	_, err := Open(context.Background(), path)
	if err == nil {
		t.Fatal("Open = nil error")
	}
	if errors.Unwrap(err) == nil {
		t.Errorf("Open error %q wraps nothing, want the driver's error", err)
	}
}

func TestOpenCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Open(ctx, filepath.Join(t.TempDir(), "x.db"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Open(canceled ctx) = %v, want context.Canceled", err)
	}
}

func TestMigrationsParse(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	// Numbers are handed out to work done in parallel, so one may land
	// before a lower one: a gap is allowed (migrate applies whatever a
	// database lacks, and CheckSchema counts them), going backwards is not.
	for i, m := range ms {
		if i == 0 && m.version != 1 || i > 0 && m.version <= ms[i-1].version {
			t.Errorf("migration %d is %s (version %d); versions must start at 1 and ascend", i, m.name, m.version)
		}
	}
}

func TestNowLayout(t *testing.T) {
	s, _ := mustOpen(t)
	s.Now = func() time.Time { return time.Date(2026, 11, 29, 15, 4, 5, 0, time.FixedZone("TRT", 3*3600)) }
	if got, want := s.now(), "2026-11-29T12:04:05.000Z"; got != want {
		t.Errorf("now() = %s, want %s", got, want)
	}
}

func TestPing(t *testing.T) {
	s, _ := mustOpen(t)
	if err := s.Ping(context.Background()); err != nil {
		t.Errorf("Ping() = %v", err)
	}
}
