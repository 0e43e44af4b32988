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
