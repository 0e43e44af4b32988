package app

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// startDebugServer serves h (handlers.DebugRoutes: pprof and metrics) on
// its own listener at addr, apart from the public site, and returns the
// function that stops it. The server has no write timeout, because a CPU
// profile or an execution trace takes as long as the caller asks.
func startDebugServer(addr string, h http.Handler, logger *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("debug listen: %w", err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	logger.Info("debug listening", "addr", ln.Addr().String())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			logger.Error("debug serve", "err", err)
		}
	}()
	return func() {
		_ = srv.Close() // profiles in progress are cut short
		<-done
	}, nil
}
