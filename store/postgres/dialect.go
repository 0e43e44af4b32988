package postgres

import (
	"embed"
	"errors"
	"io/fs"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"satranc/store"
)

// The migrations: one for each of the SQLite store's (store/migrations),
// of the same name, doing the same in PostgreSQL's SQL. TestMigrationsMatch
// checks the pairs and TestSchemaParity that both build the same schema.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// dialect is what the store needs to know of PostgreSQL.
var dialect = store.Dialect{
	Name:       "postgres",
	Migrations: mustSub(migrationFiles, "migrations"),
	Constraint: constraint,
}

// Dialect returns PostgreSQL's store.Dialect (for tests that compare the
// dialects' migrations).
func Dialect() store.Dialect { return dialect }

func mustSub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err)
	}
	return sub
}

// constraint is the dialect's store.Dialect.Constraint, by SQLSTATE: class
// 23 (integrity constraint violation), and numeric_value_out_of_range for
// an integer overflowing its column.
func constraint(err error) store.Constraint {
	pe, ok := errors.AsType[*pgconn.PgError](err)
	if !ok {
		return store.NoConstraint
	}
	switch pe.Code {
	case "23505": // unique_violation
		return store.UniqueConstraint
	case "23503": // foreign_key_violation
		return store.ForeignKeyConstraint
	case "23514": // check_violation
		return store.CheckConstraint
	case "22003": // numeric_value_out_of_range, such as bigint overflow
		return store.RangeConstraint
	}
	if strings.HasPrefix(pe.Code, "23") {
		return store.OtherConstraint
	}
	return store.NoConstraint
}

// IsURL reports whether db, the --db setting, names a PostgreSQL database
// (postgres://... or postgresql://...) rather than a SQLite file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// Redacted returns db, the --db setting, fit for a log: a PostgreSQL URL
// with its password replaced by "xxxxx", a file path as it is.
func Redacted(db string) string {
	if !IsURL(db) {
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
const nowMS = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
