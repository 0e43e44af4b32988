package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
)

// SQLite's migrations, the schema's one history. Another dialect keeps a
// file of the same name for each, doing the same in its SQL
// (store/postgres/migrations; its tests check the pairs and that both
// build the same tables, columns, keys, indexes and checks).
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one embedded migrations/NNNN_name.sql file.
type migration struct {
	version int
	name    string // file name, such as "0001_init.sql"
}

// migrations lists the embedded SQLite migration files in version order.
// Names must start with a positive number and an underscore; versions must
// be unique.
func migrations() ([]migration, error) { return sqliteDialect.migrations() }

// migrations lists the migration files of d in version order.
func (d Dialect) migrations() ([]migration, error) {
	files, err := fs.Glob(d.Migrations, "*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, f := range files {
		name := path.Base(f)
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must be NNNN_name.sql", name)
		}
		ms = append(ms, migration{version: v, name: name})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s share version %d", ms[i-1].name, ms[i].name, ms[i].version)
		}
	}
	return ms, nil
}

// migrate applies, in version order, every embedded migration that the
// schema_migrations table does not list yet. Each migration runs in its own
// transaction together with the row that records it, so it is applied
// completely or not at all, and exactly once even when two processes start
// together (the transactions are IMMEDIATE, see dsn; on PostgreSQL they
// take the writers' lock, see store/postgres).
func (s *Store) migrate(ctx context.Context) error {
	if err := s.createMigrationsTable(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	ms, err := s.dialect.migrations()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, m := range ms {
		if err := s.applyMigration(ctx, m); err != nil {
			return fmt.Errorf("migrate %s: %w", m.name, err)
		}
	}
	return nil
}

// applyMigration runs one migration unless it is recorded already.
func (s *Store) applyMigration(ctx context.Context, m migration) error {
	body, err := fs.ReadFile(s.dialect.Migrations, m.name)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }() // a no-op after Commit

	applied, err := migrationApplied(ctx, tx, m.version)
	if err != nil || applied {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	if fill := migrationFills[m.version]; fill != nil {
		if err := fill(ctx, tx); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx,
		"INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
		m.version, m.name, s.now()); err != nil {
		return err
	}
	return tx.Commit()
}

// createMigrationsTable creates schema_migrations if it is missing, in a
// transaction of its own, so that two nodes starting at once on one
// PostgreSQL database do not both create it.
func (s *Store) createMigrationsTable(ctx context.Context) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL
	)`+s.dialect.tableOptions()); err != nil {
		return err
	}
	return tx.Commit()
}

// migrationApplied reports whether version is recorded in schema_migrations.
func migrationApplied(ctx context.Context, q sqlx.QueryerContext, version int) (bool, error) {
	var n int
	err := sqlx.GetContext(ctx, q, &n, "SELECT COUNT(*) FROM schema_migrations WHERE version = ?", version)
	return n > 0, err
}

// SchemaVersion returns the highest applied migration version (0 if none).
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.db.GetContext(ctx, &v, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"); err != nil {
		return 0, fmt.Errorf("store: schema version: %w", err)
	}
	return v, nil
}
