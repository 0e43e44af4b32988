package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"satranc/engine/chips"
)

// ErrNotFound is returned, wrapped, when a requested row does not exist.
var ErrNotFound = errors.New("store: not found")

// busyTimeout is how long a connection waits for another writer's lock
// before it gives up with SQLITE_BUSY.
const busyTimeout = 5 * time.Second

// timeLayout is how times are stored: UTC text with milliseconds, which sorts
// correctly as text (time.RFC3339Nano trims zeros and would not).
const timeLayout = "2006-01-02T15:04:05.000Z"

// Store is the SQLite database. It is safe for concurrent use.
type Store struct {
	db *sqlx.DB

	// Now returns the current time; tests may replace it.
	Now func() time.Time

	// SignupGrant and DailyBonus are the chips a new account gets and the
	// daily bonus (chips.DefaultSignupGrant and DefaultDailyBonus unless
	// set; 0 grants nothing).
	SignupGrant, DailyBonus int64
}

// Open opens (creating if needed) the SQLite database at path, checks its
// settings and applies any migrations it lacks.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: open: empty path")
	}
	if strings.ContainsAny(path, "?#") {
		// The driver cuts the file name at the first '?'.
		return nil, fmt.Errorf("store: open %q: path must not contain '?' or '#'", path)
	}
	db, err := sqlx.Open("sqlite3", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &Store{db: db, Now: time.Now, SignupGrant: chips.DefaultSignupGrant, DailyBonus: chips.DefaultDailyBonus}
	if err := s.init(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return s, nil
}

// dsn builds the driver's data source name. The driver applies the
// parameters to every connection it opens, so each pooled connection gets
// the same settings:
//   - _journal_mode=WAL: readers do not block the writer, nor it them;
//   - _foreign_keys=on: SQLite enforces REFERENCES only when asked;
//   - _busy_timeout: wait for a lock instead of failing at once;
//   - _txlock=immediate: BEGIN takes the write lock up front, so two
//     transactions never deadlock while upgrading from read to write
//     (which busy_timeout cannot resolve). Plain reads need no transaction.
func dsn(path string) string {
	return fmt.Sprintf("%s?_journal_mode=WAL&_foreign_keys=on&_busy_timeout=%d&_txlock=immediate",
		path, busyTimeout.Milliseconds())
}

// init connects, verifies the connection settings and migrates.
func (s *Store) init(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return err
	}
	var mode string
	if err := s.db.GetContext(ctx, &mode, "PRAGMA journal_mode"); err != nil {
		return fmt.Errorf("journal_mode: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal_mode is %q, want wal", mode)
	}
	var fk int
	if err := s.db.GetContext(ctx, &fk, "PRAGMA foreign_keys"); err != nil {
		return fmt.Errorf("foreign_keys: %w", err)
	}
	if fk != 1 {
		return errors.New("foreign_keys is off")
	}
	return s.migrate(ctx)
}

// Close closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// Ping checks that the database answers a query.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.db.GetContext(ctx, &one, "SELECT 1"); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

// now returns the store's clock in the stored text form.
func (s *Store) now() string {
	return s.Now().UTC().Format(timeLayout)
}
