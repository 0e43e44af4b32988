package main

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"satranc/handlers"
)

// logFlushEvery is how long a log line may wait in memory before it is
// written to standard error.
const logFlushEvery = 100 * time.Millisecond

// logPendingMax bounds the lines waiting in memory: a line that takes them
// past it is written at once, with everything before it, by the request
// that logged it, so that a log the system cannot take in fast enough slows
// the server down rather than growing without bound.
const logPendingMax = 1 << 20

// logBuffer is the server log's writer. A line (one Write, as log/slog
// makes one per record) is copied into memory, and what has gathered
// reaches the writer underneath in one write, logFlushEvery after the first
// line of the batch, from a timer's goroutine: no request waits on standard
// error, a pipe to journald, a terminal or a file. Written as it came, each
// request's access-log line was a write made under the logger's lock after
// its handler returned, and on two busy cores such a write held the mover's
// answer for up to 17 ms (docs/performance.md, "What the server does to get there").
// Only the access log's lines wait so: every other line, rare beside them
// (the server's start and stop, a certificate reloaded, a warning, an
// error), is written at once with those before it (promptLines), and Close
// writes what is left.
type logBuffer struct {
	out   io.Writer
	every time.Duration

	mu      sync.Mutex // guards the fields below
	pending []byte
	armed   bool // the timer will flush pending
	closed  bool // lines are written at once
	timer   *time.Timer

	writing sync.Mutex // held while a batch is written, so that batches go out in order
	spare   []byte     // the buffer of the batch before, reused; guarded by writing
}

// newLogBuffer returns a logBuffer that writes to out every interval.
func newLogBuffer(out io.Writer, every time.Duration) *logBuffer {
	b := &logBuffer{out: out, every: every}
	b.timer = time.AfterFunc(every, b.flushTimed)
	b.timer.Stop()
	return b
}

// Write keeps a copy of p to be written with the next batch.
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	b.pending = append(b.pending, p...)
	now := b.closed || len(b.pending) >= logPendingMax
	if !now && !b.armed {
		b.armed = true
		b.timer.Reset(b.every)
	}
	b.mu.Unlock()
	if now {
		return len(p), b.Flush()
	}
	return len(p), nil
}

// flushTimed is the timer's: it writes the batch the timer was armed for,
// and the next line arms it again.
func (b *logBuffer) flushTimed() {
	b.mu.Lock()
	b.armed = false
	b.mu.Unlock()
	_ = b.Flush() // nothing to tell: a log that cannot be written cannot log it either
}

// Flush writes every line written so far.
func (b *logBuffer) Flush() error {
	b.writing.Lock()
	defer b.writing.Unlock()
	b.mu.Lock()
	batch := b.pending
	b.pending = b.spare[:0]
	b.mu.Unlock()
	b.spare = batch
	if len(batch) == 0 {
		return nil
	}
	_, err := b.out.Write(batch)
	return err
}

// Close writes what is pending; lines written after it go out at once.
func (b *logBuffer) Close() error {
	b.mu.Lock()
	b.closed = true
	b.timer.Stop()
	b.mu.Unlock()
	return b.Flush()
}

// promptLines is a log handler that writes every line but the access
// log's at once, with the lines before it: they are few, an operator
// watches for them, and one may be the last thing the process says.
type promptLines struct {
	slog.Handler
	log *logBuffer
}

func (h promptLines) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Message != handlers.AccessLogMessage || r.Level >= slog.LevelWarn {
		if ferr := h.log.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h promptLines) WithAttrs(attrs []slog.Attr) slog.Handler {
	return promptLines{h.Handler.WithAttrs(attrs), h.log}
}

func (h promptLines) WithGroup(name string) slog.Handler {
	return promptLines{h.Handler.WithGroup(name), h.log}
}
