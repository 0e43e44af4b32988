package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/mattn/go-sqlite3"
)

// checkpointEvery is how often the checkpointer looks whether the
// write-ahead log has grown, and if so copies it into the database file:
// about the pace at which the writer's own checkpoints came at 1,000
// moves a second (every 0.7 s).
const checkpointEvery = time.Second

// writerAutoCheckpoint is the log's length, in pages, past which the
// writer's own commit checkpoints (SQLite's default is 1,000). The
// checkpointer copies the log long before that; the writer's checkpoint
// is the backstop should it fall behind, and what starts the log over
// (docs/performance.md, "The checkpoints").
const writerAutoCheckpoint = 10_000

// writerDriver is the SQLite driver of the writer's connection: the
// sqlite3 driver with the writer's checkpoint raised on every connection
// it opens (a new one, should database/sql ever replace the writer's).
const writerDriver = "sqlite3_writer"

func init() {
	sql.Register(writerDriver, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		if _, err := c.Exec(fmt.Sprintf("PRAGMA wal_autocheckpoint = %d", writerAutoCheckpoint), nil); err != nil {
			return fmt.Errorf("wal_autocheckpoint: %w", err)
		}
		return nil
	}})
}

// checkpointer copies the write-ahead log into the database file from a
// connection of its own, beside the writer. Left to the writer, the copy
// ran inside the commit that took the log past 1,000 pages, about every
// 0.7 s at 1,000 moves a second: its two fsyncs and the pages it copied
// held that commit 20 to 55 ms, and every move of the moment waited
// behind it (docs/performance.md, "The checkpoints"). A checkpoint
// in PASSIVE mode takes no lock the writer needs: the writer commits
// while it copies.
type checkpointer struct {
	db countedDB
	// commits counts the writer's transactions (writeBatcher.commits): a
	// tick that finds it unchanged has nothing to copy and does nothing,
	// so that an idle server does not wake the database every second.
	commits *atomic.Uint64
	stop    chan struct{}
	closing sync.Once
	done    sync.WaitGroup
	// copied is the log's length, in pages, at the last checkpoint that
	// copied all of it (tests watch it).
	copied atomic.Int64
}

// startCheckpointer opens the checkpointer's connection to the database
// at path and starts it.
func startCheckpointer(ctx context.Context, path string, errs *errCounter, commits *atomic.Uint64) (*checkpointer, error) {
	db, err := sqlx.Open("sqlite3", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("checkpointer: %w", err)
	}
	keepOneConnection(db)
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("checkpointer: %w", err)
	}
	c := &checkpointer{db: countedDB{db, errs}, commits: commits, stop: make(chan struct{})}
	c.done.Go(c.run)
	return c, nil
}

func (c *checkpointer) run() {
	tick := time.NewTicker(checkpointEvery)
	defer tick.Stop()
	seen := c.commits.Load()
	for {
		select {
		case <-c.stop:
			return
		case <-tick.C:
		}
		if n := c.commits.Load(); n != seen {
			seen = n
			c.checkpoint()
		}
	}
}

// checkpoint copies what it can of the log. An error is counted with the
// store's others (Store.Errors); the writer's own checkpoint covers for
// a failed one.
func (c *checkpointer) checkpoint() {
	var busy, log, copied int64
	if err := c.db.ScanRowContext(context.Background(), []any{&busy, &log, &copied}, "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
		return
	}
	if busy == 0 && copied == log {
		c.copied.Store(log)
	}
}

// close stops the checkpointer and closes its connection; closing it
// again does nothing.
func (c *checkpointer) close() error {
	var err error
	c.closing.Do(func() {
		close(c.stop)
		c.done.Wait()
		err = c.db.Close()
	})
	return err
}
