package store

import (
	"errors"

	"github.com/mattn/go-sqlite3"
)

// Constraint is the kind of constraint a write broke. The store turns
// these into refusals (a name taken, a missing user, an overdrawn
// balance); the driver tells them by error code, never by message text.
type Constraint int

const (
	// NoConstraint: the error is not a broken constraint.
	NoConstraint Constraint = iota
	// UniqueConstraint: a UNIQUE or PRIMARY KEY constraint.
	UniqueConstraint
	// ForeignKeyConstraint: a FOREIGN KEY constraint.
	ForeignKeyConstraint
	// CheckConstraint: a CHECK constraint.
	CheckConstraint
	// RangeConstraint: an integer column refused a value past its range
	// (an overflowing sum).
	RangeConstraint
	// OtherConstraint: another integrity constraint (NOT NULL, a type).
	OtherConstraint
)

// sqliteConstraintDatatype is SQLITE_CONSTRAINT_DATATYPE, which the
// driver does not name: a STRICT table refusing a value of the wrong type.
// SQLite computes an integer sum that overflows as a REAL, so this is how
// an overflowing balance shows.
var sqliteConstraintDatatype = sqlite3.ErrConstraint.Extend(12)

// sqliteConstraint is SQLite's Dialect.Constraint, by the driver's
// extended result codes.
func sqliteConstraint(err error) Constraint {
	var se sqlite3.Error
	if !errors.As(err, &se) || se.Code != sqlite3.ErrConstraint {
		return NoConstraint
	}
	switch se.ExtendedCode {
	case sqlite3.ErrConstraintUnique, sqlite3.ErrConstraintPrimaryKey:
		return UniqueConstraint
	case sqlite3.ErrConstraintForeignKey:
		return ForeignKeyConstraint
	case sqlite3.ErrConstraintCheck:
		return CheckConstraint
	case sqliteConstraintDatatype:
		return RangeConstraint
	}
	return OtherConstraint
}

// constraintError is a driver's error that reports a broken constraint,
// marked with its kind by the statement wrappers (errCounter.check), so
// that the store reads the kind alike from every database.
type constraintError struct {
	kind Constraint
	err  error
}

func (e *constraintError) Error() string { return e.err.Error() }
func (e *constraintError) Unwrap() error { return e.err }

// broken tells which constraint err reports as broken.
func broken(err error) Constraint {
	if ce, ok := errors.AsType[*constraintError](err); ok {
		return ce.kind
	}
	return NoConstraint
}
