package handlers

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"satranc/engine/bot"
)

func TestMetricsInstrument(t *testing.T) {
	m := NewMetrics(MetricsConfig{Version: "v1.2.3", LiveGames: func() int { return 7 },
		BotSearches: func() bot.PoolStats {
			return bot.PoolStats{Running: 2, Done: 31, Waited: 1500 * time.Millisecond, Searched: 42 * time.Second}
		}, StoreErrors: func() uint64 { return 4 }})
	r := chi.NewRouter()
	r.Use(m.instrument)
	r.Post(moveRoute, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	r.Get("/games/{id}/events", func(w http.ResponseWriter, r *http.Request) {
		done := m.streamStarted()
		if got := testutil.ToFloat64(m.streams); got != 1 {
			t.Errorf("satranc_sse_streams during a stream = %v, want 1", got)
		}
		done()
		w.Header().Set("Content-Type", "text/event-stream")
	})
	for _, req := range []struct{ method, target string }{
		{http.MethodPost, "/games/1/moves"},
		{http.MethodPost, "/games/2/moves"},
		{http.MethodGet, "/games/1/events"},
		{http.MethodGet, "/no/such/page/42"},
	} {
		r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(req.method, req.target, nil))
	}

	if got := testutil.ToFloat64(m.requests.WithLabelValues("POST", moveRoute, "204")); got != 2 {
		t.Errorf("move requests = %v, want 2", got)
	}
	if got := testutil.ToFloat64(m.requests.WithLabelValues("GET", "unmatched", "404")); got != 1 {
		t.Errorf("unmatched requests = %v, want 1 (no series per unknown path)", got)
	}
	if got := testutil.ToFloat64(m.moves); got != 2 {
		t.Errorf("satranc_moves_total = %v, want 2", got)
	}
	if got := testutil.ToFloat64(m.streams); got != 0 {
		t.Errorf("satranc_sse_streams after the stream = %v, want 0", got)
	}
	if got := testutil.CollectAndCount(m.duration); got != 2 {
		t.Errorf("duration series = %d, want 2 (moves and unmatched; streams are not timed)", got)
	}

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		`satranc_build_info{version="v1.2.3"} 1`,
		"satranc_live_games 7",
		"satranc_move_duration_seconds_count 2",
		"satranc_move_event_latency_seconds_count 0",
		"satranc_bot_searches 2",
		"satranc_bot_searches_total 31",
		"satranc_bot_search_seconds_total 42",
		"satranc_bot_search_wait_seconds_total 1.5",
		"satranc_store_errors_total 4",
		"go_goroutines",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func TestMetricsRoute(t *testing.T) {
	tests := []struct {
		name    string
		metrics *Metrics
		status  int
	}{
		{"on", NewMetrics(MetricsConfig{}), http.StatusOK},
		{"off", nil, http.StatusNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := New(Config{Logger: slog.New(slog.DiscardHandler), DB: fakeDB{}, Metrics: tc.metrics}).Routes()
			get(t, h, "/healthz").Body.Close()
			resp := get(t, h, "/metrics")
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("GET /metrics = %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.metrics != nil && !strings.Contains(string(body), `satranc_http_requests_total{code="200",method="GET",route="/healthz"} 1`) {
				t.Errorf("/metrics does not count the /healthz request:\n%s", body)
			}
		})
	}
}

func TestDebugRoutes(t *testing.T) {
	h := DebugRoutes(NewMetrics(MetricsConfig{}))
	for _, target := range []string{"/debug/pprof/", "/debug/pprof/goroutine?debug=1", "/metrics"} {
		resp := get(t, h, target)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d, want 200", target, resp.StatusCode)
		}
	}
}
