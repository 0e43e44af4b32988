package handlers

import (
	"errors"
	"net/http"
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
