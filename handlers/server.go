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
