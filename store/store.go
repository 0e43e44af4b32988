package store

import (
	"context"
	"errors"
	"fmt"
	"runtime"
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

// Store is the database: SQLite (Open), or another SQL database through
// its dialect's package (OpenDB; store/postgres for several nodes). It is
// safe for concurrent use.
//
// It keeps two pools of connections to the one file. SQLite lets one
// writer at a time into the file; when several connections queue for the
// write lock, each sleeps and retries on its own, and under load some of
// them run out of busy timeout ("database is locked"). So every write and
// every transaction goes through db, a pool of exactly one connection,
// where waiting writers queue in order (in database/sql) instead of
// polling the lock; reads outside a transaction go through rdb, read-only
// connections that WAL lets read while the writer writes. On SQLite a
// connection of its own copies the write-ahead log into the file beside
// the writer (checkpoint.go).
type Store struct {
	// db is the writer: every transaction and every INSERT, UPDATE and
	// DELETE. A transaction on it must not call another Store method that
	// uses db (the pool has one connection: that would wait for itself).
	db countedDB
	// rdb is the read pool: plain reads outside a transaction.
	rdb countedDB
	// errs counts the database errors of both (Errors).
	errs *errCounter
	// writes makes the games' moves and ends, in batches (write_batch.go),
	// as suits the database: set by Open.
	writes *writeBatcher
	// checkpoints copies SQLite's write-ahead log into the database file
	// beside the writer (checkpoint.go); nil on another database.
	checkpoints *checkpointer
	// path is the SQLite database file ("" on another database).
	path string
	// dialect is the database's (sqliteDialect, or OpenDB's).
	dialect Dialect
	// fence checks that this process may write a game (FenceWith).
	fence Fence
	// sessions keeps the users of the sessions read lately
	// (session_cache.go).
	sessions sessionCache

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
	if strings.Contains(path, "://") {
		return nil, fmt.Errorf("store: open %q: a SQLite database is a file path, not a URL", path)
	}
	db, err := sqlx.Open(writerDriver, dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := newStore(db, sqliteDialect)
	s.path = path
	// The writer creates the file and migrates it before any reader opens.
	if err := s.init(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	rdb, err := sqlx.Open("sqlite3", dsn(path, true))
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	rdb.SetMaxOpenConns(readers)
	rdb.SetMaxIdleConns(readers)
	if err := s.openReaders(ctx, rdb); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if s.checkpoints, err = startCheckpointer(ctx, path, s.errs, &s.writes.commits); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return s, nil
}

// OpenDB makes a Store of two connection pools to a database of dialect d
// (store/postgres makes them): writer, through which every write and
// transaction goes, and readers, whose transactions are read-only. The
// store's transactions read and then write on what they read, so the
// writer's transactions must run one at a time, as SQLite's do (writer
// holds one connection; the dialect's package serializes them across
// processes). OpenDB checks that both answer and applies the migrations d
// lacks; on an error it closes both. Closing the Store closes them.
func OpenDB(ctx context.Context, writer, readers *sqlx.DB, d Dialect) (*Store, error) {
	s := newStore(writer, d)
	if err := s.db.PingContext(ctx); err != nil {
		_ = writer.Close()
		_ = readers.Close()
		return nil, fmt.Errorf("store: open %s: %w", d.Name, err)
	}
	if err := s.migrate(ctx); err != nil {
		_ = writer.Close()
		_ = readers.Close()
		return nil, fmt.Errorf("store: open %s: %w", d.Name, err)
	}
	if err := s.openReaders(ctx, readers); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", d.Name, err)
	}
	return s, nil
}

// newStore makes a Store on the writer pool db of dialect d, which keeps
// exactly one connection.
func newStore(db *sqlx.DB, d Dialect) *Store {
	keepOneConnection(db)
	errs := &errCounter{constraint: d.Constraint}
	return &Store{db: countedDB{db, errs}, errs: errs, dialect: d, fence: noFence, Now: time.Now,
		SignupGrant: chips.DefaultSignupGrant, DailyBonus: chips.DefaultDailyBonus}
}

// keepOneConnection makes db a pool of exactly one connection, kept open
// for the pool's life.
func keepOneConnection(db *sqlx.DB) {
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
}

// openReaders adds the read pool rdb to s, once the writer has migrated
// the database, and starts the move batcher; on an error it closes s.
func (s *Store) openReaders(ctx context.Context, rdb *sqlx.DB) error {
	s.rdb = countedDB{rdb, s.errs}
	if err := rdb.PingContext(ctx); err != nil {
		_ = s.Close()
		return fmt.Errorf("readers: %w", err)
	}
	s.writes = newWriteBatcher(s.db, s.fenceGame, s.dialect.soloStatements)
	return nil
}

// readers is the size of the read pool: enough for the cores to read in
// parallel, few enough that each connection's page cache stays warm.
var readers = max(4, 2*runtime.NumCPU())

// stmtCacheSize is how many prepared statements each connection keeps:
// more than the store's hot queries (a move, a session, a snapshot).
const stmtCacheSize = 64

// dsn builds the driver's data source name. The driver applies the
// parameters to every connection it opens, so each pooled connection gets
// the same settings:
//   - _journal_mode=WAL: readers do not block the writer, nor it them;
//   - _foreign_keys=on: SQLite enforces REFERENCES only when asked;
//   - _busy_timeout: wait for a lock instead of failing at once;
//   - _txlock=immediate: BEGIN takes the write lock up front, so two
//     transactions never deadlock while upgrading from read to write
//     (which busy_timeout cannot resolve). Plain reads need no transaction;
//   - _query_only (the read pool): a write through a reader fails at once
//     rather than competing with the writer for the lock;
//   - _stmt_cache_size: each connection keeps its prepared statements
//     for reuse; preparing them again for every query was about 8% of the
//     server's CPU under load (docs/performance.md, "Load").
//
// synchronous stays the driver's NORMAL: in WAL mode a commit is in the
// log file before COMMIT returns, so it survives the process being killed
// (TestKillDuringLoad); only a power loss may lose the last commits.
func dsn(path string, readOnly bool) string {
	d := fmt.Sprintf("%s?_journal_mode=WAL&_foreign_keys=on&_busy_timeout=%d&_txlock=immediate&_stmt_cache_size=%d",
		path, busyTimeout.Milliseconds(), stmtCacheSize)
	if readOnly {
		d += "&_query_only=on"
	}
	return d
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
	if s.writes != nil { // nil when Open failed before making it
		s.writes.close() // the writes queued are made first
	}
	var cerr error
	if s.checkpoints != nil {
		cerr = s.checkpoints.close()
	}
	var rerr error
	if s.rdb.DB != nil {
		rerr = s.rdb.Close()
	}
	if err := errors.Join(cerr, rerr, s.db.Close()); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// Ping checks that the database answers a query.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.rdb.GetContext(ctx, &one, "SELECT 1"); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

// now returns the store's clock in the stored text form.
func (s *Store) now() string {
	return s.Now().UTC().Format(timeLayout)
}
