package store

import (
	"context"
	"errors"
	"fmt"
)

// ErrSchemaMismatch is returned, wrapped, by CheckSchema when the database's
// migrations differ from the ones embedded in this binary.
var ErrSchemaMismatch = errors.New("store: migrations not current")

// LatestSchemaVersion returns the version of the newest migration embedded
// in this binary: the SchemaVersion a fully migrated database has.
func LatestSchemaVersion() (int, error) {
	ms, err := migrations()
	if err != nil {
		return 0, fmt.Errorf("store: migrations: %w", err)
	}
	if len(ms) == 0 {
		return 0, nil
	}
	return ms[len(ms)-1].version, nil
}

// CheckSchema reports whether the database has exactly the migrations this
// binary embeds: every one applied and none newer (a database migrated by
// a newer release). Otherwise it returns ErrSchemaMismatch, wrapped with
// both versions.
func (s *Store) CheckSchema(ctx context.Context) error {
	want, err := LatestSchemaVersion()
	if err != nil {
		return err
	}
	got, err := s.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	var applied int
	if err := s.rdb.GetContext(ctx, &applied, "SELECT COUNT(*) FROM schema_migrations"); err != nil {
		return fmt.Errorf("store: check schema: %w", err)
	}
	ms, err := s.dialect.migrations()
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if got != want || applied != len(ms) {
		return fmt.Errorf("%w: database at version %d with %d migrations, binary at version %d with %d",
			ErrSchemaMismatch, got, applied, want, len(ms))
	}
	return nil
}
