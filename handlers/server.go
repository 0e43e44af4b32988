package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"golang.org/x/net/http2"
)

// NewServer returns the site's HTTP server on addr, serving routes, with
// the timeouts a public server needs (event streams lift the write timeout
// for themselves). Its requests' contexts are cancelled as soon as
// Shutdown starts: Shutdown waits for the requests in flight, and the
// long-lived ones, the event streams, end only when their context does,
// even one whose client has stopped reading (sseWriter.end).
func NewServer(addr string, routes http.Handler, logger *slog.Logger) *http.Server {
	baseCtx, cancelBase := context.WithCancel(context.Background())
	srv := &http.Server{
		Addr:              addr,
		Handler:           routes,
		BaseContext:       func(net.Listener) context.Context { return baseCtx },
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second, // SSE streams lift it per stream
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(quietHandshakes{logger.Handler()}, slog.LevelWarn),
	}
	srv.RegisterOnShutdown(cancelBase)
	return srv
}

// ServeH2C makes srv speak HTTP/2 without TLS (h2c, with prior knowledge)
// beside HTTP/1.1 on a plain listener, for a reverse proxy that talks
// HTTP/2 to its upstream (Caddy's "transport http { versions h2c }"):
// the proxy's viewers then share a few connections instead of holding one
// each, so that the server's event streams are no longer bounded by its
// open-file limit and cost less memory each (docs/operations.md). A
// browser never speaks h2c, and a client that does is held by the same
// stream caps as any other.
//
// The connections are served by golang.org/x/net/http2 rather than the
// copy of it inside net/http, for one setting net/http does not offer: the
// write scheduler. net/http's looks through all of a connection's open
// streams for every frame it sends, and a connection from the proxy
// carries many event streams that are idle almost always: at 10,000
// games, 32 streams a connection, that search was the hottest function
// outside the kernel (docs/performance.md, "HTTP/2 behind the proxy").
// x/net's random scheduler holds only the streams with frames waiting, so
// that a connection may carry many (H2CStreams). Its write schedulers are
// deprecated: from Go 1.27 x/net's server wraps net/http's, which ignores
// the setting, and the search comes back (h2c_streams_go127.go).
func ServeH2C(srv *http.Server) error {
	srv.Protocols = new(http.Protocols)
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	srv.HTTP2 = &http.HTTP2Config{MaxConcurrentStreams: H2CStreams}
	//lint:ignore SA1019 x/net's server is the only one whose write scheduler can be chosen (above)
	err := http2.ConfigureServer(srv, &http2.Server{NewWriteScheduler: http2.NewRandomWriteScheduler})
	if err != nil {
		return fmt.Errorf("handlers: h2c: %w", err)
	}
	bufferH2CReads(srv)
	return nil
}

// quietHandshakes logs net/http's failed TLS handshakes (TLS built in) at
// debug level instead of warn: on a public address scanners and clients
// without a server name fail them all day, and none is the server's fault.
type quietHandshakes struct{ slog.Handler }

func (q quietHandshakes) Handle(ctx context.Context, r slog.Record) error {
	if strings.HasPrefix(r.Message, "http: TLS handshake error") {
		if !q.Enabled(ctx, slog.LevelDebug) {
			return nil
		}
		r.Level = slog.LevelDebug
	}
	return q.Handler.Handle(ctx, r)
}

func (q quietHandshakes) WithAttrs(attrs []slog.Attr) slog.Handler {
	return quietHandshakes{q.Handler.WithAttrs(attrs)}
}

func (q quietHandshakes) WithGroup(name string) slog.Handler {
	return quietHandshakes{q.Handler.WithGroup(name)}
}
