package store

import (
	"context"
	"errors"
	"testing"
)

func TestCheckSchema(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	if err := s.CheckSchema(ctx); err != nil {
		t.Fatalf("CheckSchema() on a fresh database = %v, want nil", err)
	}
	latest, err := LatestSchemaVersion()
	if err != nil || latest < 1 {
		t.Fatalf("LatestSchemaVersion() = %d, %v", latest, err)
	}
	if v, _ := s.SchemaVersion(ctx); v != latest {
		t.Errorf("SchemaVersion() = %d, LatestSchemaVersion() = %d", v, latest)
	}

	tests := []struct {
		name, sql string
		args      []any
	}{
		{"missing migration", "DELETE FROM schema_migrations WHERE version = ?", []any{latest}},
		{"newer database", "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future.sql', '')", []any{latest + 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := mustOpen(t)
			if _, err := s.db.Exec(tc.sql, tc.args...); err != nil {
				t.Fatal(err)
			}
			if err := s.CheckSchema(ctx); !errors.Is(err, ErrSchemaMismatch) {
				t.Errorf("CheckSchema() = %v, want ErrSchemaMismatch", err)
			}
		})
	}
}
