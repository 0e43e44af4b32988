package handlers

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/goleak"

	"satranc/engine/game"
	"satranc/engine/play"
)

// TestShutdownWithStuckClient: a graceful shutdown of the server that
// NewServer makes (Handler.ShutdownServer, as the serve command does) ends
// every event stream at once, even one whose client stopped reading while
// the server was writing to it: here a spectator's, which runs outside
// net/http. The streams' write timeout here is an hour, far longer than
// the shutdown's budget, so only the end of the stream's context can free
// the blocked write: the shutdown must return within its budget without
// an error, both streams must end, and no goroutine may be left behind.
func TestShutdownWithStuckClient(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	h, games, metrics := stuckSetup(t, time.Hour)
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = NewServer("", h.Routes(), slog.New(slog.DiscardHandler))
	srv.Listener = smallBuffers{srv.Listener}
	srv.Start()
	defer srv.Close()

	s := openStream(t, srv, ayse)
	defer s.cancel()
	s.next(t)
	stuck := openStuckStream(t, srv, metrics)
	defer stuck.Close()
	// Far more than the stuck connection's buffers hold: its stream ends
	// up blocked in a write, while the reading one gets every event.
	for range 100 {
		games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{Stamp: game.Stamp{Ply: 1}}})
		s.next(t)
	}
	if n := testutil.ToFloat64(metrics.streams); n != 2 {
		t.Fatalf("%v streams open before the shutdown, want 2", n)
	}

	const budget = 5 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	start := time.Now()
	if err := h.ShutdownServer(ctx, srv.Config); err != nil {
		t.Fatalf("Shutdown = %v after %v, want nil within %v", err, time.Since(start), budget)
	}
	t.Logf("Shutdown returned after %v", time.Since(start).Round(time.Millisecond))
	if n := testutil.ToFloat64(metrics.streams); n != 0 {
		t.Errorf("%v streams still open after the shutdown", n)
	}
	// Both clients see their stream end, rather than wait for more.
	for range s.events {
	}
	_ = stuck.SetReadDeadline(time.Now().Add(sseTimeout))
	if _, err := io.Copy(io.Discard, stuck); errors.Is(err, os.ErrDeadlineExceeded) {
		t.Error("the stuck client's connection was left open")
	}
	s.close(t)
	waitUser(t, games.disconnected, "Disconnected")
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}

// TestNewServerTimeouts: the server the serve command runs bounds how long
// a client may take to send its headers and its request, and to read the
// answer, and how long an idle connection stays open, so that slow or
// silent clients cannot hold connections without end (the values
// docs/operations.md gives); event streams lift the write timeout for
// themselves (TestSSEOutlivesServerTimeouts).
func TestNewServerTimeouts(t *testing.T) {
	srv := NewServer("", http.NotFoundHandler(), slog.New(slog.DiscardHandler))
	for _, c := range []struct {
		name      string
		got, want time.Duration
	}{
		{"ReadHeaderTimeout", srv.ReadHeaderTimeout, 10 * time.Second},
		{"ReadTimeout", srv.ReadTimeout, 30 * time.Second},
		{"WriteTimeout", srv.WriteTimeout, 30 * time.Second},
		{"IdleTimeout", srv.IdleTimeout, 2 * time.Minute},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestServerQuietHandshakes: net/http's failed TLS handshakes, which
// scanners cause all day on a public address, are logged at debug level;
// its other errors still at warn.
func TestServerQuietHandshakes(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var buf bytes.Buffer
		srv := NewServer("", http.NotFoundHandler(), slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level})))
		srv.ErrorLog.Print("http: TLS handshake error from 192.0.2.1:4242: EOF")
		srv.ErrorLog.Print("http: Accept error: too many open files")
		out := buf.String()
		if !strings.Contains(out, `level=WARN msg="http: Accept error`) {
			t.Errorf("at %v, the accept error is not logged at warn:\n%s", level, out)
		}
		handshake := strings.Contains(out, `level=DEBUG msg="http: TLS handshake error`)
		if want := level == slog.LevelDebug; handshake != want || strings.Contains(out, `level=WARN msg="http: TLS handshake`) {
			t.Errorf("at %v, the handshake error logged at debug: %v, want %v:\n%s", level, handshake, want, out)
		}
	}
}
