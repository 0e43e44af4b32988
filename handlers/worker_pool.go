package handlers

import (
	"runtime"
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
type workerPool struct {
	jobs    chan func()
	workers atomic.Int32
	max     int32
	idle    time.Duration // a worker without a job for this long ends
}

func newWorkerPool(max int, idle time.Duration) *workerPool {
	return &workerPool{jobs: make(chan func()), max: int32(max), idle: idle}
}

// hand gives job to an idle worker, or to a new one while there are fewer
// than max; it reports false, having done nothing, when all max are busy.
func (p *workerPool) hand(job func()) bool {
	select {
	case p.jobs <- job:
		return true
	default:
	}
	if p.workers.Add(1) > p.max {
		p.workers.Add(-1)
		return false
	}
	go p.work(job)
	return true
}

// work runs first and then the jobs handed to it, until it has been idle
// for p.idle: a quiet server keeps no workers.
func (p *workerPool) work(first func()) {
	defer p.workers.Add(-1)
	first()
	idle := time.NewTimer(p.idle)
	defer idle.Stop()
	for {
		select {
		case job := <-p.jobs:
			job()
			idle.Reset(p.idle)
		case <-idle.C:
			return
		}
	}
}

// renderWorkers render the streams' events (ownStack). Under load a
// worker gets a job every few milliseconds. When the cores are busy, the
// workers wait their turn with their jobs half done and a move's events
// find none idle: at 4 a core, a render on a goroutine of its own grew
// its stack afresh (3 to 5% of the server's CPU at 10,000 games). An idle
// worker costs its stack, 8 to 16 KB, for 100 ms. A core is Go's default
// GOMAXPROCS when the package loads, before `satranc serve` raises it
// (app.tuneProcs).
var renderWorkers = newWorkerPool(16*runtime.GOMAXPROCS(0), 100*time.Millisecond)

// requestWorkers run the HTTP/2 requests other than the streams'
// (streamsHandedOff): net/http starts a goroutine for each, which grew its
// stack afresh every time (4% of the server's CPU at 5,000 games).
// Requests wait on the store, so more of them are at work at once than
// renders.
var requestWorkers = newWorkerPool(16*runtime.GOMAXPROCS(0), time.Second)
