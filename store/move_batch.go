package store

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/jmoiron/sqlx"

	"satranc/engine/play"
)

// maxMoveBatch bounds how many moves one transaction commits.
const maxMoveBatch = 128

// errStoreClosed answers a move sent after Close.
var errStoreClosed = errors.New("store: closed")

// moveRefusal is appendMove's answer when the game refuses the move (it
// is over, missing, or at another ply): nothing was written and the
// database is fine.
type moveRefusal struct{ error }

func (r moveRefusal) Unwrap() error { return r.error }

// moveBatcher commits the moves that end nothing (nearly all of them) of
// many games together: one goroutine takes every move waiting, writes them
// in one transaction on the writer connection and then answers each, so
// that a move is acknowledged only once it is committed. Open makes one
// for every store, set for its database (newMoveBatcher), so that
// AppendMove does not ask which deployment it runs in.
//
// With one statement per move, each move's game waited for the writer
// connection in database/sql's queue, and the connection passed from one
// goroutine to the next once per move: under load, every hand-over waited
// for the scheduler, and at 5,000 games hundreds of moves at a time waited
// 0.3 to 1 s (docs/performance.md, "Load"). A batch passes once for all
// the moves that queued meanwhile, and one commit serves them all (on
// PostgreSQL, one take of the writers' lock too).
type moveBatcher struct {
	db countedDB
	// fence checks before each move that this process may write the game
	// (Store.FenceWith; a single process checks nothing), in the
	// transaction that writes it; a move it refuses fails alone.
	fence func(ctx context.Context, q sqlx.QueryerContext, id int64) error
	// solo lets a batch of one move go without a transaction: one
	// INSERT, which checks the game and the ply itself. That is SQLite's,
	// one process's file, which no other node shares. On PostgreSQL,
	// which the nodes of a cluster share, every batch is a transaction,
	// so that a lease cannot change between its check and the write.
	solo bool
	reqs chan moveRequest
	stop chan struct{}
	done sync.WaitGroup
	// mu orders the moves sent with close: close waits for the sends in
	// progress, so that every move queued is answered, and a send after
	// close is refused instead of waiting for a batch that never comes.
	mu     sync.RWMutex
	closed bool
}

// moveRequest is one move waiting for its batch; answer gets its result.
type moveRequest struct {
	ctx    context.Context
	id     int64
	m      play.StoredMove
	answer chan error
}

func newMoveBatcher(db countedDB, fence func(context.Context, sqlx.QueryerContext, int64) error, solo bool) *moveBatcher {
	b := &moveBatcher{db: db, fence: fence, solo: solo, reqs: make(chan moveRequest, maxMoveBatch), stop: make(chan struct{})}
	b.done.Go(b.run)
	return b
}

// append stores move m of game id in the next batch and waits until it
// is committed or refused.
func (b *moveBatcher) append(ctx context.Context, id int64, m play.StoredMove) error {
	req := moveRequest{ctx: ctx, id: id, m: m, answer: make(chan error, 1)}
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return errStoreClosed
	}
	select {
	case b.reqs <- req:
		b.mu.RUnlock()
	case <-ctx.Done():
		b.mu.RUnlock()
		return ctx.Err()
	}
	// Once queued the move is answered whether or not ctx ends: the batch
	// may already be committing it.
	return <-req.answer
}

// close stops taking moves, answers those queued, and waits for the
// batcher's goroutine.
func (b *moveBatcher) close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.stop)
	}
	b.mu.Unlock()
	b.done.Wait()
}

func (b *moveBatcher) run() {
	batch := make([]moveRequest, 0, maxMoveBatch)
	for {
		select {
		case req := <-b.reqs:
			batch = append(batch[:0], req)
		case <-b.stop:
			// Moves queued before close are still written.
			for {
				select {
				case req := <-b.reqs:
					b.write([]moveRequest{req})
				default:
					return
				}
			}
		}
	fill:
		for len(batch) < maxMoveBatch {
			select {
			case req := <-b.reqs:
				batch = append(batch, req)
			default:
				break fill
			}
		}
		b.write(batch)
	}
}

// write commits batch in one transaction and answers each move. A move
// the game refuses (a ply that does not follow, a finished game) changes
// nothing and fails alone; a database error fails the transaction, and
// then each move is tried again in a transaction of its own, so that one
// move's error is nobody else's.
func (b *moveBatcher) write(batch []moveRequest) {
	results := make([]error, len(batch))
	if err := b.writeTogether(batch, results); err != nil {
		if len(batch) == 1 {
			results[0] = err
		} else {
			for i := range batch {
				if err := b.writeTogether(batch[i:i+1], results[i:i+1]); err != nil {
					results[i] = err
				}
			}
		}
	}
	for i, req := range batch {
		req.answer <- results[i]
	}
}

// writeTogether writes batch in one transaction, each move's refusal in
// results; it returns a database error, after which nothing was written.
func (b *moveBatcher) writeTogether(batch []moveRequest, results []error) error {
	// The batch's own context: a move's request may end while the others
	// are written; a move whose request has already ended is not written.
	ctx := context.Background()
	if len(batch) == 1 && b.solo {
		// One move is one statement, a transaction of its own.
		return b.writeMove(ctx, b.db, batch[0], &results[0])
	}
	tx, err := b.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }() // a no-op after Commit
	for i, req := range batch {
		if err := b.writeMove(ctx, tx, req, &results[i]); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// writeMove writes req's move through q, unless its request has ended,
// and sets *result to the move's answer; it returns a database error.
func (b *moveBatcher) writeMove(ctx context.Context, q sqlx.ExtContext, req moveRequest, result *error) error {
	if err := req.ctx.Err(); err != nil {
		*result = err
		return nil
	}
	err := b.fence(ctx, q, req.id)
	if err == nil {
		err = appendMove(ctx, q, req.id, req.m)
	}
	_, refused := errors.AsType[moveRefusal](err)
	if err != nil && !refused && !errors.Is(err, play.ErrNotOwner) {
		return err
	}
	*result = err
	return nil
}
