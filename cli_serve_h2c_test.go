package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestServeH2C: `satranc serve --h2c` speaks HTTP/2 without TLS, as a
// reverse proxy's h2c upstream does (Caddy's "versions h2c"), and HTTP/1.1
// on the same port. Over h2c the pages, a move and the event streams of
// the players and of many spectators share one connection; the streams
// see the move; the shutdown ends them.
func TestServeH2C(t *testing.T) {
	srv := serveInProcess(t, "--addr", "127.0.0.1:0", "--h2c", "--auth-burst", "50",
		"--db", filepath.Join(t.TempDir(), "x.db"))
	addr := srv.logged(t, "listening")
	base := "http://" + addr

	var dials atomic.Int32
	h2c := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
	h2c.Protocols = new(http.Protocols)
	h2c.Protocols.SetUnencryptedHTTP2(true)
	defer h2c.CloseIdleConnections()
	client := &http.Client{Transport: h2c, Timeout: 10 * time.Second}
	waitHealthy(t, client, base+"/healthz", nil)

	resp, err := client.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
		t.Errorf("GET / over h2c = %d over %s, want 200 over HTTP/2", resp.StatusCode, resp.Proto)
	}
	// A browser's HTTP/1.1 on the same port.
	resp, err = http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 1 {
		t.Errorf("GET / over HTTP/1.1 = %d over %s, want 200 over HTTP/1.1", resp.StatusCode, resp.Proto)
	}

	a, b := newUserOver(t, h2c, base, "bora"), newUserOver(t, h2c, base, "cemil")
	gamePath, _, white, black := privateGame(t, a, b)
	white.move(t, gamePath, "e2e4", 0)

	// The opponent and twenty spectators (guests) follow the game.
	const spectators = 20
	var streams sync.WaitGroup
	streamCtx, stopStreams := context.WithTimeout(context.Background(), 20*time.Second)
	defer stopStreams()
	var sawReply atomic.Int32
	for i := range spectators + 1 {
		c := &http.Client{Transport: h2c}
		if i == 0 {
			c.Jar = black.client.Jar
		}
		req, err := http.NewRequestWithContext(streamCtx, http.MethodGet, base+gamePath+"/events", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("stream %d: %v", i, err)
		}
		if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
			t.Fatalf("stream %d = %d over %s, want 200 over HTTP/2", i, resp.StatusCode, resp.Proto)
		}
		br := bufio.NewReader(resp.Body)
		event := firstEvent(br)
		if strings.Contains(event, "lag-ping") { // a player's stream measures the lag first
			event = firstEvent(br)
		}
		if !strings.Contains(event, "e4") {
			t.Fatalf("stream %d: first event does not show e4:\n%.300s", i, event)
		}
		streams.Go(func() {
			defer resp.Body.Close()
			for {
				event := firstEvent(br)
				if strings.Contains(event, "e5") {
					sawReply.Add(1)
					break
				}
				if !strings.HasSuffix(event, "\n\n") {
					return // the stream ended
				}
			}
			_, _ = io.Copy(io.Discard, br)
		})
	}
	black.move(t, gamePath, "e7e5", 1)
	for deadline := time.Now().Add(10 * time.Second); sawReply.Load() < spectators+1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d streams saw the reply e5", sawReply.Load(), spectators+1)
		}
	}
	if n := dials.Load(); n != 1 {
		t.Errorf("h2c: %d connections for the pages, the moves and %d streams, want 1", n, spectators+1)
	}

	srv.stop(t)
	ended := make(chan struct{})
	go func() { streams.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Error("the streams were still open after the shutdown")
	}
}
