package handlers

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
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

// H2CStreams is how many requests, event streams included, one HTTP/2
// connection may carry at once when the server speaks HTTP/2 without TLS
// (ServeH2C); a reverse proxy opens another connection past it. Few:
// net/http's HTTP/2 write scheduler looks through a connection's open
// streams for each frame it sends, and at 5,000 games (10,000 mostly idle
// event streams) that search took a fifth of the server's CPU at 1,000
// streams a connection and a tenth at 100. At 32, 20,000 streams take
// some 625 connections, each a few KB.
const H2CStreams = 32

// ServeH2C makes srv speak HTTP/2 without TLS (h2c, with prior knowledge)
// beside HTTP/1.1 on a plain listener, for a reverse proxy that talks
// HTTP/2 to its upstream (Caddy's "transport http { versions h2c }"):
// the proxy's viewers then share a few connections instead of holding one
// each, so that the server's event streams are no longer bounded by its
// open-file limit and cost less memory each (docs/operations.md). A
// browser never speaks h2c, and a client that does is held by the same
// stream caps as any other.
func ServeH2C(srv *http.Server) {
	srv.Protocols = new(http.Protocols)
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	srv.HTTP2 = &http.HTTP2Config{MaxConcurrentStreams: H2CStreams}
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
