package handlers

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestShutdownEndsHTTP2StreamsCleanly: a graceful shutdown ends the idle
// event streams of an HTTP/2 connection (a proxy's, over h2c) as
// responses that are over, not as streams reset with INTERNAL_ERROR: a
// proxy passes a reset on as an error, where an end is the stream's end,
// which the browser's EventSource reconnects from. Only a write in
// progress is cut short (sseWriter.end).
func TestShutdownEndsHTTP2StreamsCleanly(t *testing.T) {
	e := newStreamEnv(t, StreamLimits{PerMember: 4, PerAddress: 20, Total: 20}, nil)
	e.srv.Close()
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = NewServer("", e.h.Routes(), slog.New(slog.DiscardHandler))
	ServeH2C(srv.Config)
	srv.Start()
	t.Cleanup(srv.Close)
	tr := srv.Client().Transport.(*http.Transport)
	tr.Protocols = new(http.Protocols)
	tr.Protocols.SetUnencryptedHTTP2(true)
	e.srv = srv

	const a = "198.51.100.1"
	streams := map[string]*http.Response{
		"a player's":    e.open(fmt.Sprintf("/games/%d/events", e.gameID), e.ayse, a),
		"a spectator's": e.open(fmt.Sprintf("/games/%d/events", e.gameID), e.cemil, a),
		"the Watch":     e.open("/watch/events", e.cemil, a),
	}
	for name, resp := range streams {
		if resp.ProtoMajor != 2 {
			t.Fatalf("%s stream came over %s: the test needs HTTP/2", name, resp.Proto)
		}
		waitEvent(t, name, resp)
	}
	// The streams' first events may still be on their way: a write in
	// progress is cut short (with a reset), by design.
	waitNoWrites(t)
	ended := make(map[string]chan error)
	for name, resp := range streams {
		ended[name] = make(chan error, 1)
		go func() {
			_, err := io.Copy(io.Discard, resp.Body)
			ended[name] <- err
		}()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.h.ShutdownServer(ctx, srv.Config); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	for name, c := range ended {
		select {
		case err := <-c:
			if err != nil {
				t.Errorf("%s stream ended with %v, want its end", name, err)
			}
		case <-ctx.Done():
			t.Fatalf("%s stream did not end", name)
		}
	}
}

// waitNoWrites waits until no stream of net/http's has been writing for
// a fifth of a second.
func waitNoWrites(t *testing.T) {
	t.Helper()
	idleSince := time.Now()
	for deadline := time.Now().Add(10 * time.Second); time.Since(idleSince) < 200*time.Millisecond; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the streams kept writing")
		}
		stalls.mu.Lock()
		for s := range stalls.writers {
			if s.writing.Load() != 0 {
				idleSince = time.Now()
			}
		}
		stalls.mu.Unlock()
	}
}
