package store

import (
	"net/url"
	"strings"
)

// dialect is the SQL database behind a Store: SQLite (the default, one
// file) or PostgreSQL (several nodes sharing one database, see
// docs/scaling.md). The queries are the same for both, written with '?'
// placeholders; what differs is confined to Open, the migrations and the
// constraint errors (constraint.go).
type dialect int

const (
	sqlite dialect = iota
	postgres
)

func (d dialect) String() string {
	if d == postgres {
		return "postgres"
	}
	return "sqlite"
}

// migrationDir is the folder of d's embedded migrations.
func (d dialect) migrationDir() string {
	if d == postgres {
		return "migrations_postgres"
	}
	return "migrations"
}

// strict is the table option that makes SQLite check column types
// (PostgreSQL always does).
func (d dialect) strict() string {
	if d == postgres {
		return ""
	}
	return " STRICT"
}

// IsPostgresURL reports whether db, the --db setting, names a PostgreSQL
// database (postgres://... or postgresql://...) rather than a SQLite file.
func IsPostgresURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// Redacted returns db, the --db setting, fit for a log: a PostgreSQL URL
// with its password replaced by "xxxxx", a file path as it is.
func Redacted(db string) string {
	if !IsPostgresURL(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return "postgres://(unparsable URL)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// nowMS is the SQL expression of the database's clock in Unix
// milliseconds, for leases: the nodes of a cluster share the database's
// clock rather than trusting each other's.
func (d dialect) nowMS() string {
	if d == postgres {
		return "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
	}
	return "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
}
