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

// writeBatcher commits the moves and game ends of many games together:
// the writes that come while a batch is being committed queue for the
// next, which makes them all in one transaction on the writer connection
// and then answers each, so that a write is acknowledged only once it is
// committed. Open makes one for every store, set for its database
// (newWriteBatcher), so that AppendMove and FinishGame do not ask which
// deployment they run in.
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
//
// No goroutine of the batcher's own commits: the write that finds nobody
// committing leads, commits its batch on its own goroutine, and hands the
// lead to the first write that queued meanwhile, as LevelDB's writers do.
// A write that comes alone, as most do (some 1.1 writes a commit at
// 5,000 games), is committed without waking another goroutine and being
// woken by it, two hand-overs through the scheduler out of a move's
// handful (docs/performance.md, "What the server does to get there").
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

	mu sync.Mutex // guards the fields up to inflight
	// queue holds the writes waiting for a batch, in their order. It is
	// empty whenever nobody leads.
	queue []gameWrite
	// leading: a write's goroutine is committing a batch, and will hand
	// the lead to the head of the queue when it is done, if any.
	leading bool
	// closed refuses the writes sent after close; inflight counts those
	// taken before, so that close waits until each is answered.
	closed   bool
	inflight sync.WaitGroup

	// batch and results are the leader's, reused from batch to batch.
	batch   []gameWrite
	results []error
	// commits counts the transactions committed, for the checkpointer to
	// tell whether the log has grown since its last look.
	commits atomic.Uint64
}

// gameWrite is one write of game id waiting for its batch: a move, the
// game's end, or a move that ends the game (both set). answer gets its
// result, or errLead, if the write queued behind a batch; the leader's
// own write needs none.
type gameWrite struct {
	ctx    context.Context
	id     int64
	move   *play.StoredMove
	end    *play.Ending
	answer chan error
}

// errCommitPanicked answers the writes of a batch whose commit panicked.
var errCommitPanicked = errors.New("store: the batch's commit panicked")

// errLead tells a queued write that the batch before has been committed
// and that it now leads the next, which it heads.
var errLead = errors.New("store: lead the next batch")

func (w gameWrite) weight() int {
	if w.end != nil {
		return endWeight
	}
	return 1
}

func newWriteBatcher(db countedDB, fence func(context.Context, sqlx.QueryerContext, int64) error, solo bool) *writeBatcher {
	return &writeBatcher{db: db, fence: fence, solo: solo,
		batch: make([]gameWrite, 0, maxBatchWeight), results: make([]error, 0, maxBatchWeight)}
}

// write makes w in the next batch and returns once it is committed or
// refused.
func (b *writeBatcher) write(ctx context.Context, w gameWrite) error {
	w.ctx = ctx
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return errStoreClosed
	}
	b.inflight.Add(1)
	defer b.inflight.Done()
	if b.leading {
		w.answer = make(chan error, 1)
		b.queue = append(b.queue, w)
		b.mu.Unlock()
		// Once queued the write is answered whether or not ctx ends: the
		// batch may already be committing it.
		if err := <-w.answer; err != errLead {
			return err
		}
		return b.lead()
	}
	b.leading = true
	b.queue = append(b.queue, w)
	b.mu.Unlock()
	return b.lead()
}

// lead commits the batch at the head of the queue, whose first write is
// the caller's, answers the others, and hands the lead to the write that
// heads the queue then, or lets it go. It returns the caller's answer.
func (b *writeBatcher) lead() error {
	b.mu.Lock()
	n, weight := 0, 0
	for n < len(b.queue) && (n == 0 || weight+b.queue[n].weight() <= maxBatchWeight) {
		weight += b.queue[n].weight()
		n++
	}
	b.batch = append(b.batch[:0], b.queue[:n]...)
	rest := copy(b.queue, b.queue[n:])
	clear(b.queue[rest:]) // the writes' contexts are not kept past their answer
	b.queue = b.queue[:rest]
	b.mu.Unlock()

	committed := false
	defer func() {
		if !committed {
			// The commit panicked, on a request's goroutine, where the
			// site's middleware recovers it: the batch's other writes are
			// answered and the lead passed on, or every write after
			// would wait for a leader that is gone.
			for _, w := range b.batch[1:] {
				if w.answer != nil {
					w.answer <- errCommitPanicked
				}
			}
		}
		clear(b.batch)
		b.mu.Lock()
		if len(b.queue) > 0 {
			b.queue[0].answer <- errLead
		} else {
			b.leading = false
		}
		b.mu.Unlock()
	}()
	own := b.commit(b.batch)
	committed = true
	return own
}

// close stops taking writes and waits until each write taken is answered.
func (b *writeBatcher) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.inflight.Wait()
}

// commit makes batch's writes in one transaction and answers each that
// waits for its answer (answer set); it returns the first write's answer,
// for the leader whose write it is. A write the game refuses (a ply that
// does not follow, a finished game) changes nothing and fails alone; a
// database error fails the transaction, and then each write is tried
// again in a transaction of its own, so that one write's error is nobody
// else's.
func (b *writeBatcher) commit(batch []gameWrite) error {
	if cap(b.results) < len(batch) {
		b.results = make([]error, len(batch))
	}
	results := b.results[:len(batch)]
	clear(results)
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
		if w.answer != nil {
			w.answer <- results[i]
		}
	}
	return results[0]
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
