package handlers

import (
	"context"
	"log/slog"
	"net"
	"net/http"
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
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	srv.RegisterOnShutdown(cancelBase)
	return srv
}
