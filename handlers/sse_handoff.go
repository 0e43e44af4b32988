package handlers

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
)

// Over HTTP/2 (h2c behind a proxy, ServeH2C, or TLS) a stream cannot be
// taken out of net/http as detachSSE does over HTTP/1.1: its connection
// carries other requests. The handler's goroutine then lives as long as
// the stream; waiting where the handler runs, under the router and some
// forty frames of middleware, it would keep the stack those grew (16 KB)
// and every request copy and context they made, for hours. Instead the
// handler hands the stream off (handOff): the middleware and the handler
// run on another goroutine, which is done with them once the stream's
// head is sent, and the request's goroutine runs the stream a few frames
// from its top (streamsHandedOff), on the few KB of stack it started
// with.

// streamHandoff is the place a stream handed off waits in, one per
// HTTP/2 request for an event stream.
type streamHandoff struct {
	// ctx and w are the request's context and response as net/http made
	// them, under no middleware's values or wrapper: ctx ends when the
	// client resets the stream or the server shuts down (NewServer).
	ctx context.Context
	w   http.ResponseWriter
	// stream is the stream handed off, to serve under streamCtx; nil if
	// the handler did not hand one off. slot is its place under the caps,
	// given back when it ends.
	stream    handedOffStream
	streamCtx context.Context
	slot      *streamSlot
}

// handedOffStream is a stream handed off (handOff): serve runs it until it
// ends, and then closes it.
type handedOffStream interface {
	serve(ctx context.Context)
}

// streamHandoffKey is the context key of the request's *streamHandoff.
type streamHandoffKey struct{}

// streamsHandedOff is the site's router, which runs the streams handed
// off (handOff) once the middleware has returned; the router's routes are
// still there to walk (chi.Walk). It wraps the whole site, ahead of every
// middleware: what the middleware log and count of a stream handed off is
// its start, as for a stream detached over HTTP/1.1.
type streamsHandedOff struct {
	chi.Router
}

// ServeHTTP runs the middleware and the handler of a stream's request on
// another goroutine (runHandler), which is done with them once the
// stream's head is sent: the stack they grow stays there. The request's
// goroutine then waits in the stream for hours with only a few frames on
// its stack: net/http's, this one and the stream's loop. Kept that
// shallow, a collection shrinks its stack to 4 KB (it shrinks a stack by
// half only while less than a quarter is in use, counting 800 bytes of
// guard), where an idle stream would otherwise keep 8 KB.
//
// Every other request over HTTP/2 runs on one of requestWorkers, whose
// stacks have grown already, as an HTTP/1.1 connection's goroutine has
// from its previous requests.
func (s *streamsHandedOff) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor != 2 {
		s.Router.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodGet || !isStreamRequest(r) {
		onRequestWorker(func() { s.Router.ServeHTTP(w, r) })
		return
	}
	ho := s.runHandler(w, r)
	if ho.stream == nil {
		return
	}
	defer ho.slot.release()
	ho.stream.serve(ho.streamCtx)
}

// runHandler runs the middleware and the handler of r, a stream's
// request over HTTP/2, on a goroutine of their own, and returns what the
// handler handed off. Not on one of requestWorkers: the idle streams'
// stacks then came out larger (4.2 to 9.2 KB a stream in four runs of
// 2,000 spectators, against 5.1 to 5.8 KB in three).
func (s *streamsHandedOff) runHandler(w http.ResponseWriter, r *http.Request) *streamHandoff {
	ho := &streamHandoff{ctx: r.Context(), w: w}
	r = r.WithContext(context.WithValue(r.Context(), streamHandoffKey{}, ho))
	onOwnGoroutine(func() { s.Router.ServeHTTP(w, r) })
	return ho
}

// onOwnGoroutine runs fn on a new goroutine and waits for it. A panic in
// fn is raised again on the caller's goroutine, where net/http recovers
// it as it would have.
func onOwnGoroutine(fn func()) {
	done := make(chan any, 1)
	go func() { done <- runRecovered(fn) }()
	if panicked := <-done; panicked != nil {
		panic(panicked)
	}
}

// onRequestWorker runs fn on one of requestWorkers and waits for it, or
// on the caller's goroutine when every worker is busy. A panic in fn is
// raised again on the caller's goroutine, as onOwnGoroutine does.
func onRequestWorker(fn func()) {
	done := make(chan any, 1)
	if !requestWorkers.hand(func() { done <- runRecovered(fn) }) {
		fn()
		return
	}
	if panicked := <-done; panicked != nil {
		panic(panicked)
	}
}

// runRecovered runs fn and returns what it panicked with, nil if it
// returned.
func runRecovered(fn func()) (panicked any) {
	defer func() { panicked = recover() }()
	fn()
	return nil
}

// handOff hands r's stream off when r came over HTTP/2 (streamsHandedOff):
// start runs at once, with the context and the response the stream will
// run on (what rendering reads of r's context, streamContext, on the
// request's own; net/http's response), to send the stream's head, and
// returns the stream, served under that context once the middleware has
// returned (nil: the stream did not start, and start has said why).
// handOff reports false, having done nothing, over HTTP/1.1. The
// stream's work past its head must run on other goroutines (ownStack),
// or the stack it grows stays with the stream.
func handOff(r *http.Request, start func(ctx context.Context, w http.ResponseWriter) handedOffStream) bool {
	ho, ok := r.Context().Value(streamHandoffKey{}).(*streamHandoff)
	if !ok || ho.stream != nil {
		return false
	}
	ctx := streamContext(ho.ctx, r.Context())
	if stream := start(ctx, ho.w); stream != nil {
		ho.slot = detachStreamSlot(r.Context())
		ho.stream, ho.streamCtx = stream, ctx
	}
	return true
}

// eventStream is a stream that serveEventStream starts: attach gives it
// the stream's writer before it serves.
type eventStream interface {
	handedOffStream
	attach(s *sseWriter)
}

// serveEventStream starts an event stream on w for r and has s serve it
// until it ends: handed off over HTTP/2 (handOff), where the request's
// goroutine serves it a few frames from its top; on the handler's
// goroutine otherwise. what names the stream in the debug log of a start
// that failed.
func (h *Handler) serveEventStream(w http.ResponseWriter, r *http.Request, what string, s eventStream) {
	if handOff(r, func(ctx context.Context, w http.ResponseWriter) handedOffStream {
		stream, err := h.startStream(ctx, w)
		if err != nil {
			h.log.DebugContext(ctx, what, "err", err)
			return nil
		}
		s.attach(stream)
		return s
	}) {
		return
	}
	stream, err := h.newStream(w, r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	s.attach(stream)
	s.serve(r.Context())
}
