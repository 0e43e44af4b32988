package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/jmoiron/sqlx"

	"satranc/engine/play"
)

// maxBatchWeight bounds the work one transaction commits, counted in
// moves: a game's end weighs endWeight, about its share of the
// statements (the move or the end, then the settlement's reads, ratings,
// ledger and experience).
const (
	maxBatchWeight = 128
	endWeight      = 8
)

// errStoreClosed answers a write sent after Close.
var errStoreClosed = errors.New("store: closed")

// refusal is a game's answer to a write it refuses (it is over, missing,
// or at another ply): nothing was written and the database is fine.
type refusal struct{ error }

func (r refusal) Unwrap() error { return r.error }

// writeBatcher commits the moves and game ends of many games together: one
// goroutine takes every write waiting, makes them in one transaction on
// the writer connection and then answers each, so that a write is
// acknowledged only once it is committed. Open makes one for every store,
// set for its database (newWriteBatcher), so that AppendMove and
// FinishGame do not ask which deployment they run in.
//
// With a transaction of its own per write, each game waited for the writer
// connection in database/sql's queue, and the connection passed from one
// goroutine to the next once per write: under load, every hand-over waited
// for the scheduler, and at 5,000 games hundreds of moves at a time waited
// 0.3 to 1 s (docs/performance.md, "Load"). A batch passes once for all
// the writes that queued meanwhile, and one commit serves them all (on
// PostgreSQL, one take of the writers' lock too). Game ends come in crowds
// too, when players resign together or a round's games are called: 3,000
// ends from 64 goroutines took 0.28 to 0.33 ms each, each in its own
// transaction, and 0.08 to 0.10 ms in transactions of 128
// (BenchmarkFinishGameManyAtOnce).
type writeBatcher struct {
	db countedDB
	// fence checks before each write that this process may write the game
	// (Store.FenceWith; a single process checks nothing), in the
	// transaction that writes it; a write it refuses fails alone.
	fence func(ctx context.Context, q sqlx.QueryerContext, id int64) error
	// solo lets a batch of one move go without a transaction: one
	// INSERT, which checks the game and the ply itself. That is SQLite's,
	// one process's file, which no other node shares. On PostgreSQL,
	// which the nodes of a cluster share, every batch is a transaction,
	// so that a lease cannot change between its check and the write.
	solo bool
	reqs chan gameWrite
	stop chan struct{}
	done sync.WaitGroup
	// mu orders the writes sent with close: close waits for the sends in
	// progress, so that every write queued is answered, and a send after
	// close is refused instead of waiting for a batch that never comes.
	mu     sync.RWMutex
	closed bool
	// commits counts the transactions committed, for the checkpointer to
	// tell whether the log has grown since its last look.
	commits atomic.Uint64
}

// gameWrite is one write of game id waiting for its batch: a move, the
// game's end, or a move that ends the game (both set). answer gets its
// result.
type gameWrite struct {
	ctx    context.Context
	id     int64
	move   *play.StoredMove
	end    *play.Ending
	answer chan error
}

func (w gameWrite) weight() int {
	if w.end != nil {
		return endWeight
	}
	return 1
}

func newWriteBatcher(db countedDB, fence func(context.Context, sqlx.QueryerContext, int64) error, solo bool) *writeBatcher {
	b := &writeBatcher{db: db, fence: fence, solo: solo, reqs: make(chan gameWrite, maxBatchWeight), stop: make(chan struct{})}
	b.done.Go(b.run)
	return b
}

// write queues w in the next batch and waits until it is committed or
// refused.
func (b *writeBatcher) write(ctx context.Context, w gameWrite) error {
	w.ctx, w.answer = ctx, make(chan error, 1)
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return errStoreClosed
	}
	select {
	case b.reqs <- w:
		b.mu.RUnlock()
	case <-ctx.Done():
		b.mu.RUnlock()
		return ctx.Err()
	}
	// Once queued the write is answered whether or not ctx ends: the
	// batch may already be committing it.
	return <-w.answer
}

// close stops taking writes, answers those queued, and waits for the
// batcher's goroutine.
func (b *writeBatcher) close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.stop)
	}
	b.mu.Unlock()
	b.done.Wait()
}

func (b *writeBatcher) run() {
	batch := make([]gameWrite, 0, maxBatchWeight)
	for {
		select {
		case w := <-b.reqs:
			batch = append(batch[:0], w)
		case <-b.stop:
			// Writes queued before close are still made.
			for {
				select {
				case w := <-b.reqs:
					b.commit([]gameWrite{w})
				default:
					return
				}
			}
		}
		weight := batch[0].weight()
	fill:
		for weight < maxBatchWeight {
			select {
			case w := <-b.reqs:
				batch = append(batch, w)
				weight += w.weight()
			default:
				break fill
			}
		}
		b.commit(batch)
	}
}

// commit makes batch's writes in one transaction and answers each. A write
// the game refuses (a ply that does not follow, a finished game) changes
// nothing and fails alone; a database error fails the transaction, and
// then each write is tried again in a transaction of its own, so that one
// write's error is nobody else's.
func (b *writeBatcher) commit(batch []gameWrite) {
	results := make([]error, len(batch))
	if err := b.commitTogether(batch, results); err != nil {
		if len(batch) == 1 {
			results[0] = err
		} else {
			for i := range batch {
				if err := b.commitTogether(batch[i:i+1], results[i:i+1]); err != nil {
					results[i] = err
				}
			}
		}
	}
	b.commits.Add(1)
	for i, w := range batch {
		w.answer <- results[i]
	}
}

// commitTogether makes batch's writes in one transaction, each one's
// refusal in results; it returns a database error, after which nothing
// was written.
func (b *writeBatcher) commitTogether(batch []gameWrite, results []error) error {
	// The batch's own context: a write's request may end while the others
	// are made; a write whose request has already ended is not made.
	ctx := context.Background()
	if len(batch) == 1 && b.solo && batch[0].end == nil {
		// One move is one statement, a transaction of its own.
		return b.writeOne(ctx, b.db, batch[0], &results[0])
	}
	tx, err := b.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }() // a no-op after Commit
	for i, w := range batch {
		if err := b.writeOne(ctx, tx, w, &results[i]); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// writeOne makes w through q, unless its request has ended, and sets
// *result to w's answer; it returns a database error.
func (b *writeBatcher) writeOne(ctx context.Context, q sqlx.ExtContext, w gameWrite, result *error) error {
	if err := w.ctx.Err(); err != nil {
		*result = err
		return nil
	}
	err := b.fence(ctx, q, w.id)
	if err == nil {
		err = w.apply(ctx, q)
	}
	_, refused := errors.AsType[refusal](err)
	if err != nil && !refused && !errors.Is(err, play.ErrNotOwner) {
		return err
	}
	*result = err
	return nil
}

// apply writes w's move, then w's end with its settlement. It returns a
// refusal only if it wrote nothing.
func (w gameWrite) apply(ctx context.Context, q sqlx.ExtContext) error {
	if w.move != nil {
		if err := appendMove(ctx, q, w.id, *w.move); err != nil {
			return err
		}
	}
	if w.end == nil {
		return nil
	}
	err := finishGame(ctx, q, w.id, *w.end)
	if _, refused := errors.AsType[refusal](err); refused && w.move != nil {
		// The move checked that the game is on, in this transaction, so
		// this cannot happen; if it did, the move is written already and
		// the transaction must not commit it without the end.
		return fmt.Errorf("end after move %d: %s", w.move.Ply, err.Error())
	}
	return err
}
