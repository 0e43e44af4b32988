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
	// pgOutOfRange: numeric_value_out_of_range, such as bigint overflow.
	pgOutOfRange = "22003"
)

// sqliteConstraintDatatype is SQLITE_CONSTRAINT_DATATYPE, which the
// driver does not name: a STRICT table refusing a value of the wrong type.
// SQLite computes an integer sum that overflows as a REAL, so this is how
// an overflowing balance shows.
var sqliteConstraintDatatype = sqlite3.ErrConstraint.Extend(12)

// isOverflow reports whether err is an integer column refusing a value
// past the int64 range.
func isOverflow(err error) bool {
	return isConstraint(err, pgOutOfRange, sqliteConstraintDatatype)
}

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
