package store

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"
)

// A constraint failure is told by the driver's error code, never by the
// message text: SQLite's extended result codes, PostgreSQL's SQLSTATE
// (class 23, integrity constraint violation).
const (
	pgUniqueViolation     = "23505"
	pgForeignKeyViolation = "23503"
	pgCheckViolation      = "23514"
)

// isUniqueViolation reports whether err is a UNIQUE or PRIMARY KEY
// constraint failure.
func isUniqueViolation(err error) bool {
	return isConstraint(err, pgUniqueViolation, sqlite3.ErrConstraintUnique, sqlite3.ErrConstraintPrimaryKey)
}

// isForeignKeyViolation reports whether err is a FOREIGN KEY constraint
// failure.
func isForeignKeyViolation(err error) bool {
	return isConstraint(err, pgForeignKeyViolation, sqlite3.ErrConstraintForeignKey)
}

// isCheckViolation reports whether err is a CHECK constraint failure.
func isCheckViolation(err error) bool {
	return isConstraint(err, pgCheckViolation, sqlite3.ErrConstraintCheck)
}

// isConstraint reports whether err is PostgreSQL's error pgCode or one of
// SQLite's extended codes.
func isConstraint(err error, pgCode string, codes ...sqlite3.ErrNoExtended) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == pgCode
	}
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}
	for _, c := range codes {
		if se.ExtendedCode == c {
			return true
		}
	}
	return false
}
