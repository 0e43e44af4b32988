package handlers

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// healthTimeout bounds the database ping of a health check.
const healthTimeout = 2 * time.Second

// handleHealth answers 200 "ok" when the database answers a query, and 503
// otherwise. Load balancers and the process test poll it.
func (h *Handler) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
	defer cancel()
	if err := h.db.Ping(ctx); err != nil {
		h.fail(w, r, fmt.Errorf("%w: %w", errUnavailable, err))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}
