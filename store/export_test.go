package store

import "context"

// The store's tests run on PostgreSQL too (postgres_test.go), through
// store/postgres, which imports this package and so cannot be imported by
// its internal tests: postgres_hook_test.go, an external test file, sets
// these from it.
var (
	// OpenPostgres opens the PostgreSQL database at url as a Store.
	OpenPostgres func(ctx context.Context, url string) (*Store, error)
	// PostgresDialect is PostgreSQL's Dialect.
	PostgresDialect Dialect
)
