package handlers

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// workerPool runs jobs on goroutines that outlive them. A goroutine
// starts on a stack of a few KB and grows it by copying, which walks all
// its frames every time it doubles: a render, or a request under the
// router and some forty frames of middleware, grows one from the smallest
// to 8 or 16 KB, two or three copies each time. A worker's stack has
// grown already. (A collection halves the stack of an idle worker, so it
// grows again once after each.)
//
// The idle workers wait in a stack, the latest idle on top, and each job
// goes to the top one, as fasthttp's workers do: under a light load the
// same few workers take every job, and those at the bottom, idle for
// longer than idle, are ended by one timer of the pool's. With an idle
// timer of its own, a worker had that timer's channel in its wait: every
// wake took the timer out of the runtime's heap and every wait put it
// back, thousands of times a second at 5,000 games.
type workerPool struct {
	mu sync.Mutex
	// ready are the idle workers, in the order they became idle.
	ready []*worker
	// sweep ends the workers idle for longer than idle; nil while none
	// is idle.
	sweep   *time.Timer
	workers atomic.Int32
	max     int32
	idle    time.Duration // a worker without a job for this long ends
}

// worker is one goroutine of a workerPool (work).
type worker struct {
	// jobs takes the worker's next job; a nil job ends it.
	jobs chan func()
	// idleFrom is when the worker last became idle.
	idleFrom time.Time
}

func newWorkerPool(max int, idle time.Duration) *workerPool {
	return &workerPool{max: int32(max), idle: idle}
}

// hand gives job to the latest idle worker, or to a new one while there
// are fewer than max; it reports false, having done nothing, when all max
// are busy.
func (p *workerPool) hand(job func()) bool {
	p.mu.Lock()
	if n := len(p.ready); n > 0 {
		w := p.ready[n-1]
		p.ready[n-1] = nil
		p.ready = p.ready[:n-1]
		p.mu.Unlock()
		w.jobs <- job // the worker waits for it: the channel has room
		return true
	}
	p.mu.Unlock()
	if p.workers.Add(1) > p.max {
		p.workers.Add(-1)
		return false
	}
	go p.work(&worker{jobs: make(chan func(), 1)}, job)
	return true
}

// work runs job and then the jobs handed to w, until the pool ends it
// (sweepIdle): a quiet server keeps no workers.
func (p *workerPool) work(w *worker, job func()) {
	defer p.workers.Add(-1)
	for job != nil {
		job()
		job = nil // what it holds is not the worker's to keep while idle
		p.release(w)
		job = <-w.jobs
	}
}

// release puts w, whose job is done, on top of the idle workers.
func (p *workerPool) release(w *worker) {
	w.idleFrom = time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ready = append(p.ready, w)
	if p.sweep == nil {
		p.sweep = time.AfterFunc(p.idle, p.sweepIdle)
	}
}

// sweepIdle ends the workers idle for longer than p.idle, at the bottom of
// the idle ones, and looks again p.idle later while any is idle.
func (p *workerPool) sweepIdle() {
	cutoff := time.Now().Add(-p.idle)
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for n < len(p.ready) && p.ready[n].idleFrom.Before(cutoff) {
		p.ready[n].jobs <- nil
		n++
	}
	kept := copy(p.ready, p.ready[n:])
	clear(p.ready[kept:])
	p.ready = p.ready[:kept]
	if kept == 0 {
		p.sweep = nil
		p.ready = nil // a slice keeps the room it grew to
		return
	}
	p.sweep.Reset(p.idle)
}

// renderWorkers render the streams' events (ownStack). Under load a
// worker gets a job every few milliseconds. When the cores are busy, the
// workers wait their turn with their jobs half done and a move's events
// find none idle: at 4 a core, a render on a goroutine of its own grew
// its stack afresh (3 to 5% of the server's CPU at 10,000 games). An idle
// worker costs its stack, 8 to 16 KB, for 100 to 200 ms (sweepIdle). A
// core is Go's default GOMAXPROCS when the package loads, before `satranc
// serve` raises it (app.tuneProcs).
var renderWorkers = newWorkerPool(16*runtime.GOMAXPROCS(0), 100*time.Millisecond)

// requestWorkers run the HTTP/2 requests other than the streams'
// (streamsHandedOff): net/http starts a goroutine for each, which grew its
// stack afresh every time (4% of the server's CPU at 5,000 games).
// Requests wait on the store, so more of them are at work at once than
// renders.
var requestWorkers = newWorkerPool(16*runtime.GOMAXPROCS(0), time.Second)
