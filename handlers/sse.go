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
	"time"

	"github.com/a-h/templ"
)

// DefaultHeartbeat is how often an idle stream gets a comment line, so that
// proxies and browsers do not close it as dead.
const DefaultHeartbeat = 20 * time.Second

// DefaultStreamWriteTimeout is how long one event may take to reach a
// client before its stream is dropped (see sseWriter.writeTimeout).
const DefaultStreamWriteTimeout = 10 * time.Second

// errStreamEnded is the error of a write after the stream's request
// ended (the client went away, or the server is shutting down).
var errStreamEnded = errors.New("handlers: sse: the stream's request ended")

// sseWriter writes Server-Sent Events to one response
// (html.spec.whatwg.org/multipage/server-sent-events.html). It writes
// straight to the response, which net/http buffers already: a buffer of
// its own would cost every open stream, idle or not, its size in memory.
type sseWriter struct {
	w  io.Writer
	rc *http.ResponseController
	// writeTimeout bounds the writing of each event: a client that stops
	// reading (a stuck tab, a dead network) fills the connection's buffers
	// and would block the stream's goroutine for good; past the timeout
	// the write fails and the stream ends, closing the connection.
	writeTimeout time.Duration
	// err is the first write error; later writes are skipped.
	err error

	// The end of the request's context (the client gone, or the server
	// shutting down) ends a write in progress at once, instead of after
	// writeTimeout: a client that stops reading must not hold up a
	// graceful shutdown. mu orders that with the stream's own deadlines
	// and with close.
	mu            sync.Mutex
	ended, closed bool
	stopAfterFunc func() bool
}

// newSSEWriter sends the headers of an event stream and lifts the server's
// write timeout for this response, which may last for hours. The caller
// must close the stream before the handler returns.
func newSSEWriter(ctx context.Context, w http.ResponseWriter) (*sseWriter, error) {
	rc := http.NewResponseController(w)
	// A writer without deadlines (a test recorder) has nothing to lift.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, fmt.Errorf("handlers: sse: lift write deadline: %w", err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: pass events through at once
	w.WriteHeader(http.StatusOK)
	s := &sseWriter{w: w, rc: rc, writeTimeout: DefaultStreamWriteTimeout}
	s.stopAfterFunc = context.AfterFunc(ctx, s.end)
	if err := s.flush(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// newStream starts an event stream on w for r with the handler's write
// timeout. The caller must close it.
func (h *Handler) newStream(w http.ResponseWriter, r *http.Request) (*sseWriter, error) {
	s, err := newSSEWriter(r.Context(), w)
	if s != nil {
		s.writeTimeout = h.streamWrite
	}
	return s, err
}

// end is called when the stream's request context ends: a write blocked
// on a client that does not read fails at once, and any later one is
// refused. After close it does nothing, since net/http may then use the
// connection for the response's end and for the next request.
func (s *sseWriter) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.ended = true
	_ = s.rc.SetWriteDeadline(time.Now()) // a deadline passed fails pending writes too
}

// close ends the stream's watch of its request's context. Call it (with
// defer) before the handler returns.
func (s *sseWriter) close() {
	s.stopAfterFunc()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}

// startWrite gives the event about to be written writeTimeout to reach the
// client. The deadline lapses harmlessly while the stream is idle: every
// write sets a new one first. Once the request has ended, the write is
// refused instead.
func (s *sseWriter) startWrite() {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.err != nil:
	case s.ended:
		s.err = errStreamEnded
	default:
		if err := s.rc.SetWriteDeadline(time.Now().Add(s.writeTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			s.err = err
		}
	}
}

// write writes b unless an earlier write failed.
func (s *sseWriter) write(b []byte) {
	if s.err == nil {
		_, s.err = s.w.Write(b)
	}
}

func (s *sseWriter) writeString(str string) {
	if s.err == nil {
		_, s.err = io.WriteString(s.w, str)
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
// (both clocks): one flush, one write to the socket.
func (s *sseWriter) put(id, name string, data []byte) {
	if id != "" {
		s.writeString("id: " + id + "\n")
	}
	if name != "" {
		s.writeString("event: " + name + "\n")
	}
	for line := range bytes.Lines(data) {
		s.writeString("data: ")
		s.write(bytes.TrimRight(line, "\r\n"))
		s.writeString("\n")
	}
	if len(data) == 0 {
		s.writeString("data: \n")
	}
	s.writeString("\n")
}

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

// renderEvent renders c and writes it as one event (put), without
// sending it.
func (s *sseWriter) renderEvent(ctx context.Context, id, name string, c templ.Component) error {
	buf := renderBuffers.Get().(*bytes.Buffer)
	defer renderBuffers.Put(buf)
	buf.Reset()
	if err := c.Render(ctx, buf); err != nil {
		return err
	}
	s.put(id, name, buf.Bytes())
	return nil
}

func (s *sseWriter) flush() error {
	if s.err != nil {
		return fmt.Errorf("handlers: sse: %w", s.err)
	}
	if err := s.rc.Flush(); err != nil {
		return fmt.Errorf("handlers: sse: %w", err)
	}
	return nil
}
