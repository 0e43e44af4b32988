package handlers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a-h/templ"
)

// DefaultHeartbeat is how often an idle stream gets a comment line, so that
// proxies and browsers do not close it as dead.
const DefaultHeartbeat = 20 * time.Second

// DefaultStreamWriteTimeout is how long one event may take to reach a
// client before its stream is dropped (see sseWriter.writeTimeout).
const DefaultStreamWriteTimeout = 10 * time.Second

// errStreamEnded is the error of a write after the stream's context
// ended (the client went away, or the server is shutting down).
var errStreamEnded = errors.New("handlers: sse: the stream's context ended")

// sseWriter writes Server-Sent Events to one response
// (html.spec.whatwg.org/multipage/server-sent-events.html), through an
// eventSink: the response as net/http writes it, or the connection of a
// stream taken out of net/http (sse_detach.go).
type sseWriter struct {
	out eventSink
	// writeTimeout bounds the writing of each event: a client that stops
	// reading (a stuck tab, a dead network) fills the connection's buffers
	// and would block the stream's goroutine for good; past the timeout
	// the write fails and the stream ends, closing the connection.
	writeTimeout time.Duration
	// watched says the stalls watch holds the writes to their timeout
	// (sse_stall.go) instead of a deadline of the connection's; writing
	// is then when the write in progress began (UnixNano), 0 for none.
	watched bool
	writing atomic.Int64
	// err is the first write error; later writes are skipped.
	err error

	// The end of the stream's context ctx (the client gone, or the
	// server shutting down) ends a write in progress soon, instead of
	// after writeTimeout: a client that stops reading must not hold up a
	// graceful shutdown. A watched stream's end is found by the stalls
	// watch, which looks at its writes anyway; another has a function run
	// at its context's end (stopAfterFunc undoes it): over HTTP/2, where
	// thousands of streams are watched, that registration cost each some
	// 370 bytes. mu orders the end with the stream's own deadlines and
	// with close.
	ctx           context.Context
	mu            sync.Mutex
	ended, closed bool
	stopAfterFunc func() bool
}

// eventSink is where a stream's events go: put writes into it, flush
// sends what was written.
type eventSink interface {
	io.Writer
	Flush() error
	SetWriteDeadline(time.Time) error
}

// responseSink is the response of a stream served by net/http. It writes
// straight to the response, which net/http buffers already: a buffer of
// its own would cost every open stream, idle or not, its size in memory.
type responseSink struct {
	http.ResponseWriter
	rc *http.ResponseController
}

// Flush sends what was written. The stalls watch holds the write to its
// timeout (sse_stall.go): a deadline of the response's own would cost,
// over HTTP/2, a timer that resets the stream when it fires, idle or not,
// to be lifted after each event.
func (r responseSink) Flush() error { return r.rc.Flush() }

// SetWriteDeadline sets the connection's write deadline; a writer without
// deadlines (a test recorder) has none to set.
func (r responseSink) SetWriteDeadline(t time.Time) error {
	if err := r.rc.SetWriteDeadline(t); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// newSSEWriter sends the headers of an event stream and lifts the server's
// write timeout for this response, which may last for hours. The caller
// must close the stream before the handler returns.
func newSSEWriter(ctx context.Context, w http.ResponseWriter) (*sseWriter, error) {
	return openSSE(ctx, w, DefaultStreamWriteTimeout)
}

// openSSE is newSSEWriter with the time an event may take to reach the
// client, which is set before the stalls watch can read it.
func openSSE(ctx context.Context, w http.ResponseWriter, writeTimeout time.Duration) (*sseWriter, error) {
	out := responseSink{w, http.NewResponseController(w)}
	if err := out.SetWriteDeadline(time.Time{}); err != nil {
		return nil, fmt.Errorf("handlers: sse: lift write deadline: %w", err)
	}
	// A stream's request has no body left to read. Over HTTP/2 the
	// server's read timeout is a timer of each stream's, kept for as long
	// as the stream lasts, long after it fired.
	if err := out.rc.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, fmt.Errorf("handlers: sse: lift read deadline: %w", err)
	}
	setEventStreamHeaders(w.Header())
	w.WriteHeader(http.StatusOK)
	return startSSE(ctx, out, writeTimeout)
}

// setEventStreamHeaders sets the headers of an event stream's response.
func setEventStreamHeaders(h http.Header) {
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: pass events through at once
}

// startSSE starts a stream on out, whose head is written already, and
// sends it; the end of ctx ends the stream's writes (end).
func startSSE(ctx context.Context, out eventSink, writeTimeout time.Duration) (*sseWriter, error) {
	s := &sseWriter{out: out, writeTimeout: writeTimeout, ctx: ctx}
	if _, ok := out.(responseSink); ok {
		s.watched = true
		stalls.add(s)
	} else {
		s.stopAfterFunc = context.AfterFunc(ctx, s.end)
	}
	s.startWrite()
	if err := s.flush(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// newStream starts an event stream on w for r with the handler's write
// timeout. The caller must close it.
func (h *Handler) newStream(w http.ResponseWriter, r *http.Request) (*sseWriter, error) {
	return h.startStream(r.Context(), w)
}

// startStream starts an event stream on w, which runs under ctx, with the
// handler's write timeout. The caller must close it.
func (h *Handler) startStream(ctx context.Context, w http.ResponseWriter) (*sseWriter, error) {
	return openSSE(ctx, w, h.streamWrite)
}

// end is called when the stream's context ends: a write blocked on a
// client that does not read fails at once, and any later one is refused.
// After close it does nothing, since net/http may then use the
// connection for the response's end and for the next request. A watched
// stream's end comes from the stalls watch (endedMidWrite), or from its next
// write (startWrite).
//
// A stream of net/http's is left to end as a response does when its
// handler returns: over HTTP/2 a deadline that passes resets the stream
// with INTERNAL_ERROR, which a proxy passes on as an error, where a
// graceful shutdown should end it. So an idle one gets no deadline, and a
// write in progress gets endGrace to finish, after which the handler
// returns before the deadline fires; only a client that does not read is
// cut off.
func (s *sseWriter) end() { s.endWrites(endGrace) }

// cut ends the stream's writes at once: the stalls watch's, for a write
// that has run past its timeout (sse_stall.go).
func (s *sseWriter) cut() { s.endWrites(0) }

// endWrites refuses the stream's later writes and gives a write of
// net/http's in progress grace to finish; a stream taken out of net/http
// has its connection's writes fail at once. Only a cut moves the end of a
// stream already ended: another grace would put its write's deadline off.
func (s *sseWriter) endWrites(grace time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.ended && grace > 0 {
		return
	}
	s.ended = true
	switch {
	case !s.watched:
		_ = s.out.SetWriteDeadline(time.Now()) // a deadline passed fails pending writes too
	case s.writing.Load() != 0:
		_ = s.out.SetWriteDeadline(time.Now().Add(grace))
	}
}

// endGrace is how long a write in progress when a stream of net/http's
// ends may take to finish (sseWriter.end).
const endGrace = time.Second

// endedMidWrite reports whether a write is in progress on a stream whose
// context has ended: the stalls watch ends it then (end), giving the
// write endGrace to finish. An idle one is left to its loop, which sees
// the context's end, and to startWrite, which refuses its writes from
// then on.
func (s *sseWriter) endedMidWrite() bool {
	return s.writing.Load() != 0 && s.ctx.Err() != nil
}

// close ends the stream's watch of its context. Call it (with defer)
// before the handler returns.
func (s *sseWriter) close() {
	if s.watched {
		stalls.remove(s)
	} else {
		s.stopAfterFunc()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}

// startWrite gives the event about to be written writeTimeout to reach the
// client: the stalls watch ends it past that (a response of net/http's),
// or the connection's deadline does, which lapses harmlessly while the
// stream is idle, every write setting a new one first. Once the context
// has ended, the write is refused instead.
func (s *sseWriter) startWrite() {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.err != nil:
	case s.ended || s.watched && s.ctx.Err() != nil:
		s.ended = true
		s.err = errStreamEnded
	case s.watched:
		s.writing.Store(time.Now().UnixNano())
	default:
		s.err = s.out.SetWriteDeadline(time.Now().Add(s.writeTimeout))
	}
}

// stalled reports whether a write in progress at now began more than
// writeTimeout before.
func (s *sseWriter) stalled(now time.Time) bool {
	began := s.writing.Load()
	return began != 0 && now.UnixNano()-began > int64(s.writeTimeout)
}

// write writes b unless an earlier write failed.
func (s *sseWriter) write(b []byte) {
	if s.err == nil {
		_, s.err = s.out.Write(b)
	}
}

func (s *sseWriter) writeString(str string) {
	if s.err == nil {
		_, s.err = io.WriteString(s.out, str)
	}
}

// event writes one event and sends it. data may span lines: each becomes
// its own data field, as the format requires; an empty id or name is left
// out.
func (s *sseWriter) event(id, name string, data []byte) error {
	s.startWrite()
	s.put(id, name, data)
	return s.flush()
}

// put writes one event without sending it, for events that go together
// (both clocks): one flush, one write to the socket. The event is framed
// in a pooled buffer and written at once: a write per field and line went
// through every layer of the response for a few bytes each.
func (s *sseWriter) put(id, name string, data []byte) {
	if s.err != nil {
		return
	}
	buf := eventBuffers.Get().(*bytes.Buffer)
	defer eventBuffers.Put(buf)
	buf.Reset()
	if id != "" {
		buf.WriteString("id: ")
		buf.WriteString(id)
		buf.WriteByte('\n')
	}
	if name != "" {
		buf.WriteString("event: ")
		buf.WriteString(name)
		buf.WriteByte('\n')
	}
	for line := range bytes.Lines(data) {
		buf.WriteString("data: ")
		buf.Write(bytes.TrimRight(line, "\r\n"))
		buf.WriteByte('\n')
	}
	if len(data) == 0 {
		buf.WriteString("data: \n")
	}
	buf.WriteByte('\n')
	s.write(buf.Bytes())
}

// eventBuffers frame the events that put writes (renderBuffers holds
// what they carry).
var eventBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// comment writes a comment line, which clients ignore: the heartbeat.
func (s *sseWriter) comment(text string) error {
	s.startWrite()
	s.writeString(": " + strings.ReplaceAll(text, "\n", " ") + "\n\n")
	return s.flush()
}

// renderBuffers are the buffers events are rendered into before they
// are written: a panel is some 15 KB, rendered hundreds of times a second
// under load, and growing a fresh buffer to that size each time was a
// good part of the garbage.
var renderBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledRender is the largest buffer put back in renderBuffers: a
// page or a panel fits (20 to 40 KB), and a rare large page is not kept
// for every render after it.
const maxPooledRender = 256 << 10

// putRenderBuffer puts buf back in renderBuffers unless it grew past
// maxPooledRender.
func putRenderBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledRender {
		renderBuffers.Put(buf)
	}
}

// renderEvent renders c and writes it as one event (put), without
// sending it.
func (s *sseWriter) renderEvent(ctx context.Context, id, name string, c templ.Component) error {
	buf, err := renderPooled(ctx, c)
	if err != nil {
		return err
	}
	defer putRenderBuffer(buf)
	s.put(id, name, buf.Bytes())
	return nil
}

// renderPooled renders c into a buffer of renderBuffers, which the caller
// puts back.
func renderPooled(ctx context.Context, c templ.Component) (*bytes.Buffer, error) {
	buf := renderBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	if err := c.Render(ctx, buf); err != nil {
		putRenderBuffer(buf)
		return nil, err
	}
	return buf, nil
}

func (s *sseWriter) flush() error {
	defer s.writing.Store(0)
	if s.err != nil {
		return fmt.Errorf("handlers: sse: %w", s.err)
	}
	if err := s.out.Flush(); err != nil {
		return fmt.Errorf("handlers: sse: %w", err)
	}
	return nil
}
