package main

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"
)

// inProcessServe is `satranc serve` run in the test's own process (run),
// for the tests that need no binary: what it logs, and its exit code once
// it stops.
type inProcessServe struct {
	logs    syncBuffer
	done    chan int
	cancel  context.CancelFunc
	stopped bool
}

// serveInProcess starts `satranc serve args...` in this process. The
// test's end stops it, if the test did not, and logs what it printed if
// the test failed.
func serveInProcess(t *testing.T, args ...string) *inProcessServe {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &inProcessServe{done: make(chan int, 1), cancel: cancel}
	go func() { s.done <- run(ctx, append([]string{"serve"}, args...), nil, io.Discard, &s.logs) }()
	t.Cleanup(func() {
		if !s.stopped {
			if err := s.shutdown(); err != "" {
				t.Error(err)
			}
		}
		if t.Failed() {
			t.Logf("server output:\n%s", s.logs.String())
		}
	})
	return s
}

// logged waits for the log line msg and returns the address it names
// (logged).
func (s *inProcessServe) logged(t *testing.T, msg string) string {
	t.Helper()
	return logged(t, &s.logs, msg, s.done)
}

// stop stops serve, as a signal does, and fails the test unless it exits
// with 0 within 15 s.
func (s *inProcessServe) stop(t *testing.T) {
	t.Helper()
	if err := s.shutdown(); err != "" {
		t.Fatal(err)
	}
}

// shutdown cancels serve's context and waits for it to exit; it says what
// went wrong, "" if nothing did.
func (s *inProcessServe) shutdown() string {
	s.cancel()
	select {
	case code := <-s.done:
		s.stopped = true
		if code != 0 {
			return fmt.Sprintf("serve exited with %d, want 0", code)
		}
		return ""
	case <-time.After(15 * time.Second):
		return "serve did not stop within 15 s"
	}
}
