package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"runtime"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"

	"satranc/store"
)

// PostgreSQL is for several nodes sharing one database (docs/scaling.md).
// The store's queries are written once, with SQLite's '?' placeholders;
// on PostgreSQL each connection rewrites them to $1, $2, ... (sqlx.Rebind)
// before they reach the server, so that store code written and tested on
// SQLite runs unchanged, including code added later.
//
// SQLite lets one writer at a time into the file, and the store's
// transactions rely on it: a transaction reads (a balance, a count of
// games, the number of moves) and then writes on what it read, and no
// other transaction can write in between (IMMEDIATE, see dsn). PostgreSQL
// lets transactions run side by side, on this node and on others. To keep
// exactly the behaviour the store was written for, every read-write
// transaction takes one transaction-scoped advisory lock, the writers'
// lock, as its first statement: transactions that write run one at a time
// across all nodes, as they do in SQLite, and reads outside transactions
// never wait. It is coarse, and the first thing to refine when one
// database is the bottleneck (row locks on what each transaction reads).

// writersLock is the advisory lock key every read-write transaction takes
// ("Satranç" in ASCII, as a number).
const writersLock int64 = 0x5361747261_6e63

// idleInTransaction is how long PostgreSQL lets a session sit idle inside
// a transaction before ending it. The store's transactions take
// milliseconds; this only ends those of a node that stopped.
const idleInTransaction = 5 * time.Second

// driverName is the name sqlx knows PostgreSQL by (for its own Rebind
// and named queries, which then use $n directly).
const driverName = "pgx"

// Store is the store on a PostgreSQL database, with what the nodes of a
// cluster need besides: the games' leases (leases.go) and the cluster's
// roles (roles.go).
type Store struct {
	*store.Store
	// db and rdb are the store's own writer and readers, for the leases'
	// statements.
	db, rdb *sqlx.DB
}

// Open opens the PostgreSQL database at url (a postgres:// URL in libpq's
// form: host, port, user, password, database, and parameters such as
// host=/path/to/socket/dir or sslmode) and applies any migrations it
// lacks. Like store.Open it keeps a writer pool of one connection, through
// which every write and transaction goes, and a pool of readers whose
// transactions are read-only.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	// A node that stops inside a transaction (paused, swapped out, cut off)
	// would hold the writers' lock, and so every node's writes, for as
	// long as it stays stopped: the server ends such a session after
	// idleInTransaction and the lock goes with it. The stopped node's
	// transaction then fails, and its lease (fencing) keeps it from
	// writing on its return.
	if _, set := cfg.RuntimeParams["idle_in_transaction_session_timeout"]; !set {
		cfg.RuntimeParams["idle_in_transaction_session_timeout"] = strconv.FormatInt(idleInTransaction.Milliseconds(), 10)
	}
	rcfg := cfg.Copy()
	// A write through a reader fails at once (SQLite's _query_only).
	rcfg.RuntimeParams["default_transaction_read_only"] = "on"
	db := sqlx.NewDb(sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg)}), driverName)
	rdb := sqlx.NewDb(sql.OpenDB(pgConnector{stdlib.GetConnector(*rcfg)}), driverName)
	rdb.SetMaxOpenConns(readers)
	rdb.SetMaxIdleConns(readers)
	st, err := store.OpenDB(ctx, db, rdb, dialect)
	if err != nil {
		return nil, fmt.Errorf("%w (database %s on %s)", err, cfg.Database, cfg.Host)
	}
	return &Store{Store: st, db: db, rdb: rdb}, nil
}

// readers is the size of the read pool, as the SQLite store's.
var readers = max(4, 2*runtime.NumCPU())

// pgConnector makes pgx's connections pgConns.
type pgConnector struct{ driver.Connector }

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	pc, ok := conn.(*stdlib.Conn)
	if !ok {
		_ = conn.Close()
		return nil, fmt.Errorf("postgres: the driver returned a %T", conn)
	}
	return &pgConn{Conn: pc}, nil
}

// pgConn is a pgx connection that rewrites '?' placeholders to $n and
// takes the writers' lock at the start of every read-write transaction.
// (The rewrite is sqlx.Rebind's: it does not look inside string literals,
// so the store's SQL never puts a '?' in one.)
type pgConn struct{ *stdlib.Conn }

// rebind rewrites query's '?' placeholders for PostgreSQL. A statement
// without arguments is left alone: a migration's body may hold several
// statements and comments, and no placeholder.
func rebind(query string, args int) string {
	if args == 0 {
		return query
	}
	return sqlx.Rebind(sqlx.DOLLAR, query)
}

func (c *pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.Conn.Prepare(sqlx.Rebind(sqlx.DOLLAR, query))
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, sqlx.Rebind(sqlx.DOLLAR, query))
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, rebind(query, len(args)), args)
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, rebind(query, len(args)), args)
}

func (c *pgConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx begins a transaction; a read-write one first takes the writers'
// lock, which PostgreSQL releases at its commit or rollback.
func (c *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.Conn.BeginTx(ctx, opts)
	if err != nil || opts.ReadOnly {
		return tx, err
	}
	if _, err := c.Conn.Conn().Exec(ctx, "SELECT pg_advisory_xact_lock($1)", writersLock); err != nil {
		_ = tx.Rollback()
		return nil, fmt.Errorf("writers' lock: %w", err)
	}
	return tx, nil
}
