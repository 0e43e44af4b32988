package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/handlers"
)

// lockedBuffer is a writer the test reads while the log's timer writes to it.
type lockedBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// stuckWriter is a standard error that takes no line until released.
type stuckWriter struct {
	release chan struct{}
	lockedBuffer
}

func (s *stuckWriter) Write(p []byte) (int, error) {
	<-s.release
	return s.lockedBuffer.Write(p)
}

func TestLogBufferWritesInBatches(t *testing.T) {
	var out lockedBuffer
	b := newLogBuffer(&out, 20*time.Millisecond)
	const writers, lines = 8, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range lines {
				fmt.Fprintf(b, "writer=%d line=%d\n", w, i)
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), "\n") < writers*lines && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != writers*lines {
		t.Fatalf("%d lines reached the log without Close, want %d", len(got), writers*lines)
	}
	next := make([]int, writers)
	for _, line := range got {
		var w, i int
		if _, err := fmt.Sscanf(line, "writer=%d line=%d", &w, &i); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if i != next[w] {
			t.Fatalf("writer %d: line %d came where line %d was due", w, i, next[w])
		}
		next[w]++
	}
	out.mu.Lock()
	writes := out.writes
	out.mu.Unlock()
	if writes >= writers*lines {
		t.Errorf("%d writes for %d lines: the lines were not gathered", writes, writers*lines)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestLogBufferDoesNotWaitOnTheLog: a line is logged while the log
// underneath takes nothing, as a request logs while standard error is slow.
func TestLogBufferDoesNotWaitOnTheLog(t *testing.T) {
	out := &stuckWriter{release: make(chan struct{})}
	b := newLogBuffer(out, time.Millisecond)
	logged := make(chan struct{})
	go func() {
		for i := range 100 {
			fmt.Fprintf(b, "line %d\n", i)
			time.Sleep(time.Millisecond) // past the interval: the timer is writing
		}
		close(logged)
	}()
	select {
	case <-logged:
	case <-time.After(10 * time.Second):
		t.Fatal("a Write waited on the log underneath")
	}
	close(out.release)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != 100 {
		t.Errorf("%d lines after Close, want 100:\n%s", n, out.String())
	}
}

func TestLogBufferOtherLinesAtOnce(t *testing.T) {
	var out lockedBuffer
	b := newLogBuffer(&out, time.Hour)
	logger := slog.New(promptLines{slog.NewTextHandler(b, nil), b}).With("node", "a")
	logger.Info(handlers.AccessLogMessage, "path", "/")
	if s := out.String(); s != "" {
		t.Fatalf("an access-log line was written before its batch: %q", s)
	}
	logger.Info("certificate reloaded")
	s := out.String()
	if !strings.Contains(s, "path=/") || !strings.Contains(s, "certificate reloaded") || !strings.Contains(s, "node=a") {
		t.Fatalf("after another line the log holds %q, want the access-log line before it and the line", s)
	}
	if strings.Index(s, "path=/") > strings.Index(s, "certificate reloaded") {
		t.Errorf("the lines are out of order: %q", s)
	}
	logger.Error(handlers.AccessLogMessage, "status", 500)
	if !strings.Contains(out.String(), "status=500") {
		t.Errorf("an access-log line at error level waited for its batch: %q", out.String())
	}
	logger.Info(handlers.AccessLogMessage, "path", "/after")
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "path=/after") {
		t.Errorf("Close did not write the pending line: %q", out.String())
	}
	logger.Info(handlers.AccessLogMessage, "path", "/closed")
	if !strings.Contains(out.String(), "path=/closed") {
		t.Errorf("a line after Close was not written at once: %q", out.String())
	}
}

func TestLogBufferBounded(t *testing.T) {
	var out lockedBuffer
	b := newLogBuffer(&out, time.Hour)
	line := strings.Repeat("x", 1023) + "\n"
	for range logPendingMax / len(line) {
		b.Write([]byte(line))
	}
	if got := len(out.String()); got != logPendingMax {
		t.Errorf("%d bytes written once %d were pending, want them all", got, logPendingMax)
	}
	b.Write([]byte(line))
	if got := len(out.String()); got != logPendingMax {
		t.Errorf("%d bytes written, want the last line kept for its batch", got)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}
