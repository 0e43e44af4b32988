package store

import (
	"io/fs"
)

// Dialect describes an SQL database other than SQLite that the store runs
// on (store/postgres is the one there is). The store's queries are the
// same for every database, written with '?' placeholders; what differs is
// how the connections are made (the dialect's package), the migrations and
// how the driver reports a broken constraint.
type Dialect struct {
	// Name names the database in errors and logs ("postgres").
	Name string
	// Migrations holds the dialect's migrations as NNNN_name.sql files at
	// its root: one for each of SQLite's (store/migrations) of the same
	// name, doing the same in the dialect's SQL.
	Migrations fs.FS
	// Constraint tells which constraint, if any, the driver's error err
	// reports as broken (NoConstraint for any other error).
	Constraint func(err error) Constraint

	// strict is SQLite's table option that makes it check column types
	// (other databases always do).
	strict bool
	// soloStatements: a statement outside a transaction is as safe as one
	// inside (SQLite's single writer in one process), so a batch of one
	// move needs no transaction (writeBatcher.solo).
	soloStatements bool
}

// sqliteDialect is the store's own database.
var sqliteDialect = Dialect{
	Name:           "sqlite",
	Migrations:     mustSub(migrationFiles, "migrations"),
	Constraint:     sqliteConstraint,
	strict:         true,
	soloStatements: true,
}

// tableOptions is what follows a CREATE TABLE's closing parenthesis.
func (d Dialect) tableOptions() string {
	if d.strict {
		return " STRICT"
	}
	return ""
}

// mustSub is fs.Sub of an embedded folder that is known to exist.
func mustSub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err)
	}
	return sub
}
