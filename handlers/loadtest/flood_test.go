package loadtest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestFlood: the flood signs one member up, opens its streams from the
// addresses in turn (X-Forwarded-For), counts the answers by status,
// keeps the streams let in open and closes them when told.
func TestFlood(t *testing.T) {
	var mu sync.Mutex
	perAddress := map[string]int{}
	open := 0
	mux := http.NewServeMux()
	mux.HandleFunc("POST /signup", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "s", Path: "/"})
	})
	mux.HandleFunc("GET /watch/events", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		addr := r.Header.Get("X-Forwarded-For")
		perAddress[addr]++
		refused := perAddress[addr] > 2 // a cap of two per address
		if !refused {
			open++
		}
		mu.Unlock()
		if refused {
			http.Error(w, "too many", http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		mu.Lock()
		open--
		mu.Unlock()
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var out bytes.Buffer
	cfg := Config{Base: srv.URL, Flood: 10, FloodAddresses: 3}
	closeFlood, err := flood(t.Context(), cfg, transports{srv.Client().Transport, srv.Client().Transport}, "t", &out)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "10 streams from 3 addresses") || !strings.Contains(got, "200: 6") || !strings.Contains(got, "429: 4") {
		t.Errorf("report %q, want 6 let in and 4 refused from 3 addresses", got)
	}
	mu.Lock()
	if len(perAddress) != 3 || open != 6 {
		t.Errorf("%d addresses, %d streams open; want 3 and 6", len(perAddress), open)
	}
	mu.Unlock()
	closeFlood()
}
