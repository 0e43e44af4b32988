package handlers

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkLogRequests measures the access log's cost per request: a
// handler that writes a few bytes, through logRequests, logged as text to
// nowhere.
func BenchmarkLogRequests(b *testing.B) {
	h := &Handler{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	served := h.logRequests(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "ok")
	}))
	req := httptest.NewRequest(http.MethodPost, "/games/7/moves", nil)
	b.ReportAllocs()
	for b.Loop() {
		served.ServeHTTP(httptest.NewRecorder(), req)
	}
}
