package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/jmoiron/sqlx"
)

// ErrBackupExists is returned, wrapped, when the backup file already
// exists: a backup never overwrites anything.
var ErrBackupExists = errors.New("store: backup file already exists")

// ErrBackupNotSQLite is returned by a backup of another database than
// SQLite, which is that database's own tools' job (PostgreSQL's pg_dump,
// base backups).
var ErrBackupNotSQLite = errors.New("store: backup: only a SQLite database is backed up by satranc backup (PostgreSQL: pg_dump)")

// Backup writes a consistent copy of the database to the new file dest with
// SQLite's VACUUM INTO. It runs as one read transaction, so it sees a
// snapshot of the database and neither blocks the server's writes nor is
// disturbed by them (WAL mode). dest must not exist. It uses a connection
// of its own: the read pool's refuse to write, VACUUM INTO's new file too,
// and the writer would hold up every other write for the whole copy.
func (s *Store) Backup(ctx context.Context, dest string) error {
	if s.path == "" {
		return ErrBackupNotSQLite
	}
	db, err := sqlx.Open("sqlite3", dsn(s.path, false))
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	defer func() { _ = db.Close() }()
	return backup(ctx, db, dest)
}

// BackupFile copies the database file src, which a running server may be
// using, to the new file dest (see Store.Backup). Unlike Open it neither
// creates nor migrates src, so a backup tool of another version leaves a
// running server's schema alone.
func BackupFile(ctx context.Context, src, dest string) error {
	if strings.Contains(src, "://") {
		return ErrBackupNotSQLite
	}
	if strings.ContainsAny(src, "?#") {
		return fmt.Errorf("store: backup %q: path must not contain '?' or '#'", src)
	}
	fi, err := os.Stat(src)
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("store: backup: %s is not a regular file", src)
	}
	// Only a busy timeout: journal_mode is the file's own (WAL, set by the
	// server), and nothing here writes to src.
	db, err := sqlx.Open("sqlite3", fmt.Sprintf("%s?_busy_timeout=%d", src, busyTimeout.Milliseconds()))
	if err != nil {
		return fmt.Errorf("store: backup %s: %w", src, err)
	}
	defer func() { _ = db.Close() }()
	var n int
	if err := db.GetContext(ctx, &n, "SELECT COUNT(*) FROM sqlite_schema WHERE name = 'schema_migrations'"); err != nil {
		return fmt.Errorf("store: backup %s: %w", src, err)
	}
	if n == 0 {
		return fmt.Errorf("store: backup %s: not a Satranç database (no schema_migrations table)", src)
	}
	return backup(ctx, db, dest)
}

// backup runs VACUUM INTO a temporary file beside dest, syncs it, and then
// links it to dest, so that dest appears complete or not at all and an
// existing file is never replaced, even by a race.
func backup(ctx context.Context, db *sqlx.DB, dest string) (err error) {
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("%w: %s", ErrBackupExists, dest)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store: backup: %w", err)
	}
	tmp, err := tempName(dest)
	if err != nil {
		return err
	}
	defer func() {
		if rerr := os.Remove(tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
			err = fmt.Errorf("store: backup: %w", rerr)
		}
	}()
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		return fmt.Errorf("store: backup to %s: %w", dest, err)
	}
	if err := syncFile(tmp); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	if err := os.Link(tmp, dest); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%w: %s", ErrBackupExists, dest)
		}
		return fmt.Errorf("store: backup: %w", err)
	}
	return syncDir(filepath.Dir(dest))
}

// tempName returns an unused file name in dest's directory.
func tempName(dest string) (string, error) {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("store: backup: %w", err)
	}
	return filepath.Join(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp-"+hex.EncodeToString(b)), nil
}

// syncFile flushes the file name to stable storage.
func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// syncDir flushes a directory entry change; where a directory cannot be
// synced (some file systems refuse), the backup stands all the same.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	_ = f.Sync()
	if err := f.Close(); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	return nil
}
