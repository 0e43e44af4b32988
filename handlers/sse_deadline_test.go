package handlers

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestSSEOutlivesServerTimeouts: a stream keeps going past the server's
// ReadTimeout and WriteTimeout (the serve command sets both), and its
// request's context stays alive that long: neither deadline may end it.
func TestSSEOutlivesServerTimeouts(t *testing.T) {
	const timeout = 300 * time.Millisecond
	const events = 12 // 100 ms apart: four times the timeouts
	ctxErr := make(chan error, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := newSSEWriter(r.Context(), w)
		if err != nil {
			ctxErr <- err
			return
		}
		defer s.close()
		tick := time.NewTicker(timeout / 3)
		defer tick.Stop()
		for range events {
			select {
			case <-r.Context().Done():
				ctxErr <- r.Context().Err()
				return
			case <-tick.C:
			}
			if err := s.comment("tick"); err != nil {
				ctxErr <- err
				return
			}
		}
		ctxErr <- nil
	}))
	srv.Config.ReadTimeout, srv.Config.WriteTimeout = timeout, timeout
	srv.Start()
	defer srv.Close()

	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	got := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), ": tick") {
			got++
		}
	}
	if got != events {
		t.Errorf("read %d events, want %d (%v)", got, events, sc.Err())
	}
	if err := <-ctxErr; err != nil {
		t.Errorf("the stream's handler stopped early: %v", err)
	}
}

// TestSSEIdleOverHTTP2: over HTTP/2 a stream idle for longer than its
// write timeout is still open and gets its next event. net/http arms a
// timer for an HTTP/2 response's write deadline and resets the stream
// when it fires, even if no write is in progress, so a deadline left
// set after an event would end every stream quiet for that long.
func TestSSEIdleOverHTTP2(t *testing.T) {
	const writeTimeout = 300 * time.Millisecond // a write's own room on a busy machine
	done := make(chan error, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := newSSEWriter(r.Context(), w)
		if err != nil {
			done <- err
			return
		}
		defer s.close()
		s.writeTimeout = writeTimeout
		for i := range 3 {
			if i > 0 {
				time.Sleep(3 * writeTimeout) // idle
			}
			if err := s.comment("tick"); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}))
	startH2C(t, srv)
	defer srv.Close()

	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ProtoMajor != 2 {
		t.Fatalf("the stream came over %s: the test needs HTTP/2", resp.Proto)
	}
	sc := bufio.NewScanner(resp.Body)
	got := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), ": tick") {
			got++
		}
	}
	if got != 3 || sc.Err() != nil {
		t.Errorf("read %d events, want 3 (%v)", got, sc.Err())
	}
	if err := <-done; err != nil {
		t.Errorf("a write after the stream was idle: %v", err)
	}
}

// startH2C starts srv speaking HTTP/2 without TLS (ServeH2C), its client
// too.
func startH2C(tb testing.TB, srv *httptest.Server) {
	tb.Helper()
	if err := ServeH2C(srv.Config); err != nil {
		tb.Fatal(err)
	}
	srv.Start()
	tr := srv.Client().Transport.(*http.Transport)
	tr.Protocols = new(http.Protocols)
	tr.Protocols.SetUnencryptedHTTP2(true)
}
