package handlers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"
)

// TestShutdownEndsHTTP2StreamsCleanly: a graceful shutdown ends the idle
// event streams of an HTTP/2 connection (a proxy's, over h2c) as
// responses that are over, not as streams reset with INTERNAL_ERROR: a
// proxy passes a reset on as an error, where an end is the stream's end,
// which the browser's EventSource reconnects from. A write in progress
// gets a moment to finish (sseWriter.end); only a client that does not
// read is cut off (TestSSEShutdownEndsStalledWrite).
func TestShutdownEndsHTTP2StreamsCleanly(t *testing.T) {
	e := newStreamEnv(t, StreamLimits{PerMember: 4, PerAddress: 20, Total: 20}, nil)
	e.srv.Close()
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = NewServer("", e.h.Routes(), slog.New(slog.DiscardHandler))
	startH2C(t, srv)
	t.Cleanup(srv.Close)
	e.srv = srv

	const a = "198.51.100.1"
	streams := map[string]*http.Response{
		"a player's":    e.open(fmt.Sprintf("/games/%d/events", e.gameID), e.ayse, a),
		"a spectator's": e.open(fmt.Sprintf("/games/%d/events", e.gameID), e.cemil, a),
		"the Watch":     e.open("/watch/events", e.cemil, a),
	}
	for name, resp := range streams {
		if resp.ProtoMajor != 2 {
			t.Fatalf("%s stream came over %s: the test needs HTTP/2", name, resp.Proto)
		}
		waitEvent(t, name, resp)
	}
	// The streams' first events may still be on their way: a write in
	// progress is cut short (with a reset), by design.
	waitNoWrites(t)
	ended := make(map[string]chan error)
	for name, resp := range streams {
		ended[name] = make(chan error, 1)
		go func() {
			_, err := io.Copy(io.Discard, resp.Body)
			ended[name] <- err
		}()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.h.ShutdownServer(ctx, srv.Config); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	for name, c := range ended {
		select {
		case err := <-c:
			if err != nil {
				t.Errorf("%s stream ended with %v, want its end", name, err)
			}
		case <-ctx.Done():
			t.Fatalf("%s stream did not end", name)
		}
	}
}

// waitNoWrites waits until no stream of net/http's has been writing for
// a fifth of a second.
func waitNoWrites(t *testing.T) {
	t.Helper()
	idleSince := time.Now()
	for deadline := time.Now().Add(10 * time.Second); time.Since(idleSince) < 200*time.Millisecond; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the streams kept writing")
		}
		stalls.mu.Lock()
		for s := range stalls.writers {
			if s.writing.Load() != 0 {
				idleSince = time.Now()
			}
		}
		stalls.mu.Unlock()
	}
}

// stuckSink is an eventSink whose client does not read: a write blocks
// until the write deadline set on it passes. deadlines records them.
type stuckSink struct {
	mu        sync.Mutex
	deadline  time.Time
	deadlines []time.Time
	changed   chan struct{}
}

func newStuckSink() *stuckSink { return &stuckSink{changed: make(chan struct{}, 1)} }

func (s *stuckSink) Write(b []byte) (int, error) {
	for {
		s.mu.Lock()
		d := s.deadline
		s.mu.Unlock()
		if !d.IsZero() && !time.Now().Before(d) {
			return 0, os.ErrDeadlineExceeded
		}
		wait := time.Hour
		if !d.IsZero() {
			wait = time.Until(d)
		}
		select {
		case <-s.changed:
		case <-time.After(wait):
		}
	}
}

func (s *stuckSink) Flush() error { return nil }

func (s *stuckSink) SetWriteDeadline(t time.Time) error {
	s.mu.Lock()
	s.deadline = t
	s.deadlines = append(s.deadlines, t)
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
	return nil
}

// TestSSEShutdownEndsStalledWrite: when a stream of net/http's ends (the
// server shutting down), an idle one gets no write deadline, which over
// HTTP/2 would reset it; a write in progress to a client that does not
// read is cut off endGrace after the stalls watch finds the stream ended,
// so that it does not hold up the shutdown.
func TestSSEShutdownEndsStalledWrite(t *testing.T) {
	const check = 20 * time.Millisecond
	watch := newStallWatch(check)
	idle, stuck := newStuckSink(), newStuckSink()
	ctx, cancel := context.WithCancel(t.Context())
	streams := map[*stuckSink]*sseWriter{}
	for _, sink := range []*stuckSink{idle, stuck} {
		s := &sseWriter{out: sink, watched: true, writeTimeout: time.Hour, ctx: ctx}
		watch.add(s)
		defer watch.remove(s)
		streams[sink] = s
	}
	written := make(chan error, 1)
	go func() { written <- streams[stuck].comment("a write the client never reads") }()
	for streams[stuck].writing.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	cancel()
	select {
	case err := <-written:
		if took := time.Since(start); !errors.Is(err, os.ErrDeadlineExceeded) || took < endGrace/2 {
			t.Errorf("the stalled write ended after %v with %v, want the deadline's error after about %v", took, err, endGrace+check)
		}
	case <-time.After(10 * endGrace):
		t.Fatal("the stalled write held on past the shutdown")
	}
	if err := streams[idle].comment("after"); !errors.Is(err, errStreamEnded) {
		t.Errorf("a write to the idle stream after its end = %v, want errStreamEnded", err)
	}
	stuck.mu.Lock()
	if len(stuck.deadlines) != 1 {
		t.Errorf("the stalled write got write deadlines %v, want one: the watch's later checks must not put it off", stuck.deadlines)
	}
	stuck.mu.Unlock()
	idle.mu.Lock()
	defer idle.mu.Unlock()
	if len(idle.deadlines) != 0 {
		t.Errorf("the idle stream got write deadlines %v, want none", idle.deadlines)
	}
}
