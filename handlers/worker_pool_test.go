package handlers

import (
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestWorkerPool: jobs run on up to max workers, an idle worker takes the
// next job, the pool refuses a job while all max are busy, and a worker
// idle for long enough ends.
func TestWorkerPool(t *testing.T) {
	p := newWorkerPool(2, 50*time.Millisecond)
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	for i := range 2 {
		if !p.hand(func() { started <- struct{}{}; <-release }) {
			t.Fatalf("job %d refused with %d of 2 workers busy", i, i)
		}
	}
	<-started
	<-started
	if p.hand(func() {}) {
		t.Fatal("a third job taken while both workers are busy")
	}
	close(release)

	// The workers, done, wait for jobs: the next ones go to them.
	done := make(chan struct{})
	deadline := time.Now().Add(5 * time.Second)
	for !p.hand(func() { done <- struct{}{} }) {
		if time.Now().After(deadline) {
			t.Fatal("no worker took a job after the first two ended")
		}
		time.Sleep(time.Millisecond)
	}
	<-done
	if n := p.workers.Load(); n > 2 {
		t.Errorf("%d workers, want at most 2", n)
	}
	for p.workers.Load() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d workers still there after idling", p.workers.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWorkerPoolEndsTheLongIdle: the sweep ends the workers idle for
// longer than the pool's idle time, at the bottom of the idle ones, and
// keeps the latest idle, which takes the next job.
func TestWorkerPoolEndsTheLongIdle(t *testing.T) {
	p := newWorkerPool(3, time.Hour)
	var started sync.WaitGroup
	release := make(chan struct{})
	for range 3 {
		started.Add(1)
		if !p.hand(func() { started.Done(); <-release }) {
			t.Fatal("a job refused with fewer than 3 workers busy")
		}
	}
	started.Wait()
	close(release)
	idle := func() int {
		p.mu.Lock()
		defer p.mu.Unlock()
		return len(p.ready)
	}
	deadline := time.Now().Add(5 * time.Second)
	for idle() != 3 {
		if time.Now().After(deadline) {
			t.Fatalf("%d of 3 workers idle after their jobs", idle())
		}
		time.Sleep(time.Millisecond)
	}

	p.mu.Lock()
	long := time.Now().Add(-2 * p.idle)
	p.ready[0].idleFrom, p.ready[1].idleFrom = long, long
	latest := p.ready[2]
	p.mu.Unlock()
	p.sweepIdle()
	for p.workers.Load() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d workers after the sweep, want the 1 idle for less than an hour", p.workers.Load())
		}
		time.Sleep(time.Millisecond)
	}
	p.mu.Lock()
	if len(p.ready) != 1 || p.ready[0] != latest {
		t.Errorf("the sweep kept %d idle workers, want the latest one", len(p.ready))
	}
	p.mu.Unlock()

	done := make(chan struct{})
	if !p.hand(func() { close(done) }) {
		t.Fatal("the next job refused with a worker idle")
	}
	<-done
	if n := p.workers.Load(); n != 1 {
		t.Errorf("%d workers after the next job, want the idle one to take it", n)
	}
	for idle() != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the worker did not come back idle after its job")
		}
		time.Sleep(time.Millisecond)
	}
	// The test's end: the sweep's timer stops, and the worker ends.
	p.mu.Lock()
	p.sweep.Stop()
	p.ready[0].jobs <- nil
	p.mu.Unlock()
}

// TestOnRequestWorkerPanics: a panic in a request run on a worker is
// raised again on the request's goroutine, as net/http expects, and the
// worker lives on.
func TestOnRequestWorkerPanics(t *testing.T) {
	got := func() (v any) {
		defer func() { v = recover() }()
		onRequestWorker(func() { panic(http.ErrAbortHandler) })
		return nil
	}()
	if err, _ := got.(error); !errors.Is(err, http.ErrAbortHandler) {
		t.Fatalf("recovered %v, want http.ErrAbortHandler", got)
	}
	ran := false
	onRequestWorker(func() { ran = true })
	if !ran {
		t.Error("the next request did not run")
	}
}
