package handlers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// A spectator's game stream spends hours idle. Served by net/http, each
// one holds the connection's goroutine (which runs the handler), net/http's
// background reader, the connection's read and write buffers, the request
// and its middleware's contexts: some 45 KB. A stream taken out of
// net/http (hijacked, detachSSE) holds its socket, one goroutine and the
// state of its own it needs; it borrows a buffer for each event only.
// net/http's Shutdown neither ends such streams nor waits for them:
// detachedStreams does.

// detachSSE takes the connection of r out of net/http and starts an event
// stream on it, which runs under ctx: the response's head carries the
// headers set on w so far (the middleware's security headers) and the
// stream's own, and the body lasts until the connection closes. The
// caller must close the stream, then the sink (which closes the
// connection). An error that wraps http.ErrNotSupported leaves w as it
// was (HTTP/2, a test recorder, a HEAD request): stream through w then.
func detachSSE(ctx context.Context, w http.ResponseWriter, r *http.Request, writeTimeout time.Duration) (*sseWriter, *connSink, error) {
	if r.Method != http.MethodGet || r.ProtoMajor != 1 {
		return nil, nil, fmt.Errorf("handlers: sse: detach %s %s: %w", r.Method, r.Proto, http.ErrNotSupported)
	}
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return nil, nil, fmt.Errorf("handlers: sse: detach: %w", err)
	}
	// The reader and writer net/http hands over with the connection are
	// left for the garbage collector: nothing is read from a stream's
	// connection (a GET has no body), and events are written whole.
	// The stream's slot under the caps (stream_limit.go) is the
	// connection's from now on: it is given back when the connection
	// closes, not when the handler returns.
	sink := &connSink{conn: conn, slot: detachStreamSlot(r.Context())}
	// The server's read and write deadlines, set for the request, would
	// otherwise still apply.
	if err := conn.SetDeadline(time.Time{}); err != nil {
		sink.Close()
		return nil, nil, fmt.Errorf("handlers: sse: detach: %w", err)
	}
	hd := w.Header()
	setEventStreamHeaders(hd)
	hd.Set("Connection", "close") // the body ends with the connection
	hd.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	_, _ = io.WriteString(sink, "HTTP/1.1 200 OK\r\n")
	_ = hd.Write(sink)
	_, _ = io.WriteString(sink, "\r\n")
	s, err := startSSE(ctx, sink, writeTimeout) // sends the head
	if err != nil {
		sink.Close()
		return nil, nil, err
	}
	return s, sink, nil
}

// connSink is the connection of a stream taken out of net/http. An event
// is gathered in a buffer of renderBuffers and sent in one write by
// Flush; between events the stream holds no buffer.
type connSink struct {
	conn net.Conn
	buf  *bytes.Buffer // nil between events
	slot *streamSlot   // nil: the stream holds none
}

func (c *connSink) Write(b []byte) (int, error) {
	if c.buf == nil {
		c.buf = renderBuffers.Get().(*bytes.Buffer)
		c.buf.Reset()
	}
	return c.buf.Write(b)
}

// Flush writes the event gathered and gives its buffer back.
func (c *connSink) Flush() error {
	if c.buf == nil {
		return nil
	}
	_, err := c.conn.Write(c.buf.Bytes())
	c.release()
	return err
}

func (c *connSink) SetWriteDeadline(t time.Time) error { return c.conn.SetWriteDeadline(t) }

// Close closes the connection, which ends the response, and gives back
// the stream's slot.
func (c *connSink) Close() {
	c.release()
	_ = c.conn.Close()
	c.slot.release()
}

func (c *connSink) release() {
	if c.buf != nil {
		putRenderBuffer(c.buf)
		c.buf = nil
	}
}

// detachedStreams are the streams a Handler runs outside net/http. They
// run under ctx, which end cancels at the server's shutdown.
type detachedStreams struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	closing bool
	n       int // streams running
	wg      sync.WaitGroup
}

func newDetachedStreams() *detachedStreams {
	ctx, cancel := context.WithCancel(context.Background())
	return &detachedStreams{ctx: ctx, cancel: cancel}
}

// add counts one more stream, which must call done when it ends; it
// reports false, counting nothing, once the streams are ending.
func (d *detachedStreams) add() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closing {
		return false
	}
	d.n++
	d.wg.Add(1)
	return true
}

func (d *detachedStreams) done() {
	d.mu.Lock()
	d.n--
	d.mu.Unlock()
	d.wg.Done()
}

// running returns the number of streams running.
func (d *detachedStreams) running() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.n
}

// end ends every stream and waits for them until ctx ends.
func (d *detachedStreams) end(ctx context.Context) error {
	d.mu.Lock()
	d.closing = true
	d.mu.Unlock()
	d.cancel()
	ended := make(chan struct{})
	go func() { d.wg.Wait(); close(ended) }()
	select {
	case <-ended:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("handlers: detached streams: %w", ctx.Err())
	}
}

// ShutdownServer shuts srv, which serves h's routes, down gracefully
// (http.Server.Shutdown), and with it the streams h took out of net/http,
// which Shutdown neither ends nor waits for: both start ending at once,
// and it waits for both until ctx ends.
func (h *Handler) ShutdownServer(ctx context.Context, srv *http.Server) error {
	detached := make(chan error, 1)
	go func() { detached <- h.detached.end(ctx) }()
	err := srv.Shutdown(ctx)
	if derr := <-detached; err == nil {
		err = derr
	}
	return err
}
