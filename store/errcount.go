package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/jmoiron/sqlx"
)

// Errors reports how many database errors the store has met so far, for
// the server's metrics (satranc_store_errors_total): failures of the
// database itself (a locked or closed database, a full disk, a lost
// connection), not a row that is not there, a constraint that refuses a
// duplicate (the store turns those into refusals) or a caller that gave up.
func (s *Store) Errors() uint64 { return s.errs.Load() }

// errCounter counts database errors; every statement of the store goes
// through countedDB or countedTx, which report each error to it, so the
// counting happens in this one place. It also marks the errors that
// report a broken constraint with their kind (constraintError), by its
// database's Dialect.Constraint, for the store's code to read alike from
// every database.
type errCounter struct {
	n          atomic.Uint64
	constraint func(error) Constraint
}

// check counts err if it is a database error and returns it, marked if
// it reports a broken constraint.
func (c *errCounter) check(err error) error {
	if err == nil {
		return nil
	}
	if k := c.constraint(err); k != NoConstraint {
		return &constraintError{kind: k, err: err}
	}
	if isDatabaseError(err) {
		c.n.Add(1)
	}
	return err
}

// Load returns the errors counted.
func (c *errCounter) Load() uint64 { return c.n.Load() }

// isDatabaseError tells a failure of the database from the outcomes the
// store expects and handles: no rows, the caller's context ending (and a
// broken constraint, which check tells first).
func isDatabaseError(err error) bool {
	return !errors.Is(err, sql.ErrNoRows) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// countedDB is a connection pool whose statements' errors are counted.
type countedDB struct {
	*sqlx.DB
	errs *errCounter
}

func (d countedDB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*countedTx, error) {
	tx, err := d.DB.BeginTxx(ctx, opts)
	if err != nil {
		return nil, d.errs.check(err)
	}
	return &countedTx{Tx: tx, errs: d.errs, ctx: ctx}, nil
}

func (d countedDB) Beginx() (*countedTx, error) { return d.BeginTxx(context.Background(), nil) }

func (d countedDB) PingContext(ctx context.Context) error { return d.errs.check(d.DB.PingContext(ctx)) }

func (d countedDB) Exec(query string, args ...any) (sql.Result, error) {
	return d.ExecContext(context.Background(), query, args...)
}

func (d countedDB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := d.DB.ExecContext(ctx, query, args...)
	return res, d.errs.check(err)
}

func (d countedDB) Get(dest any, query string, args ...any) error {
	return d.GetContext(context.Background(), dest, query, args...)
}

func (d countedDB) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return d.errs.check(d.DB.GetContext(ctx, dest, query, args...))
}

func (d countedDB) Select(dest any, query string, args ...any) error {
	return d.SelectContext(context.Background(), dest, query, args...)
}

func (d countedDB) SelectContext(ctx context.Context, dest any, query string, args ...any) error {
	return d.errs.check(d.DB.SelectContext(ctx, dest, query, args...))
}

func (d countedDB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := d.DB.QueryContext(ctx, query, args...)
	return rows, d.errs.check(err)
}

func (d countedDB) QueryxContext(ctx context.Context, query string, args ...any) (*sqlx.Rows, error) {
	rows, err := d.DB.QueryxContext(ctx, query, args...)
	return rows, d.errs.check(err)
}

// ScanRowContext scans the first row of query into dest, by position,
// without sqlx's mapping by name: the store's hottest reads (a session's
// user on every request) spent a third of their time and memory there.
// No row is sql.ErrNoRows.
func (d countedDB) ScanRowContext(ctx context.Context, dest []any, query string, args ...any) error {
	return d.errs.check(d.DB.QueryRowContext(ctx, query, args...).Scan(dest...))
}

func (d countedDB) QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row {
	row := d.DB.QueryRowxContext(ctx, query, args...)
	_ = d.errs.check(row.Err())
	return row
}

// countedTx is a transaction whose statements' errors, and its commit's,
// are counted.
type countedTx struct {
	*sqlx.Tx
	errs *errCounter
	ctx  context.Context // the transaction's: database/sql rolls it back when this ends
}

// check counts err as errCounter.check does, but first tells a
// transaction that database/sql rolled back because its context ended
// (the client went away) by that context's error: its statements and its
// commit then fail with sql.ErrTxDone, which is no failure of the
// database and must not count as one.
func (t *countedTx) check(err error) error {
	if errors.Is(err, sql.ErrTxDone) && t.ctx.Err() != nil {
		err = fmt.Errorf("%w: %w", t.ctx.Err(), err)
	}
	return t.errs.check(err)
}

func (t *countedTx) Commit() error { return t.check(t.Tx.Commit()) }

func (t *countedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := t.Tx.ExecContext(ctx, query, args...)
	return res, t.check(err)
}

func (t *countedTx) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return t.check(t.Tx.GetContext(ctx, dest, query, args...))
}

func (t *countedTx) SelectContext(ctx context.Context, dest any, query string, args ...any) error {
	return t.check(t.Tx.SelectContext(ctx, dest, query, args...))
}

func (t *countedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := t.Tx.QueryContext(ctx, query, args...)
	return rows, t.check(err)
}

func (t *countedTx) QueryxContext(ctx context.Context, query string, args ...any) (*sqlx.Rows, error) {
	rows, err := t.Tx.QueryxContext(ctx, query, args...)
	return rows, t.check(err)
}

func (t *countedTx) QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row {
	row := t.Tx.QueryRowxContext(ctx, query, args...)
	_ = t.check(row.Err())
	return row
}
