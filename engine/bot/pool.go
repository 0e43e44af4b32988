package bot

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	"satranc/engine/chess"
)

// Pool limits how many searches run at once, so that bots never take more
// cores than the machine has and never hold up other games. A Pool is safe
// for concurrent use.
type Pool struct {
	slots   chan struct{}
	running atomic.Int64  // searches holding a slot now
	done    atomic.Uint64 // searches finished, for the server's metrics
	// waited and searched add up the nanoseconds the searches spent
	// waiting for a slot and holding one.
	waited, searched atomic.Int64
}

// NewPool returns a pool running at most n searches at once; n <= 0 means
// runtime.NumCPU().
func NewPool(n int) *Pool {
	if n <= 0 {
		n = runtime.NumCPU()
	}
	return &Pool{slots: make(chan struct{}, n)}
}

// PoolStats is what a Pool's searches came to, for the server's metrics.
type PoolStats struct {
	// Running counts the searches holding a slot now; Done those finished
	// so far (each call of a pooled Player's Move, whether it ended with
	// a move, was cut short or failed).
	Running int
	Done    uint64
	// Waited is the time the searches spent waiting for a slot (every
	// core busy with another search), Searched the time they held one.
	Waited, Searched time.Duration
}

// Stats reports what the pool's searches came to so far.
func (pl *Pool) Stats() PoolStats {
	return PoolStats{Running: int(pl.running.Load()), Done: pl.done.Load(),
		Waited: time.Duration(pl.waited.Load()), Searched: time.Duration(pl.searched.Load())}
}

// Player returns a Player that waits for a free slot in the pool before
// calling p. If ctx is done while it waits, p is called at once with the
// done context, which makes it answer immediately with a legal move.
func (pl *Pool) Player(p Player) Player { return pooled{pool: pl, inner: p} }

type pooled struct {
	pool  *Pool
	inner Player
}

func (pp pooled) Move(ctx context.Context, p chess.Position, history []uint64, c Clock) (chess.Move, error) {
	asked := time.Now()
	select {
	case pp.pool.slots <- struct{}{}:
		defer func() { <-pp.pool.slots }()
	case <-ctx.Done():
	}
	began := time.Now()
	pp.pool.waited.Add(int64(began.Sub(asked)))
	pp.pool.running.Add(1)
	defer func() {
		pp.pool.searched.Add(int64(time.Since(began)))
		pp.pool.running.Add(-1)
		pp.pool.done.Add(1)
	}()
	return pp.inner.Move(ctx, p, history, c)
}

// Paced returns a Player that takes at least the thinking time
// pace.MoveDelay gives for each move before answering, as a person would:
// BlitzPace at public tables, PracticePace in practice games. The wait
// ends early when ctx is done; the zero Pace does not wait. The search
// itself should run inside the pool, and the waiting outside it:
// Paced(pool.Player(bot), pace, seed).
func Paced(p Player, pace Pace, seed uint64) Player {
	return paced{inner: p, pace: pace, seed: seed}
}

type paced struct {
	inner Player
	pace  Pace
	seed  uint64
}

func (pp paced) Move(ctx context.Context, p chess.Position, history []uint64, c Clock) (chess.Move, error) {
	start := time.Now()
	m, err := pp.inner.Move(ctx, p, history, c)
	if err != nil {
		return m, err
	}
	wait := pp.pace.MoveDelay(&p, m, c, splitmix(pp.seed^p.Hash())) - time.Since(start)
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return m, nil
}
