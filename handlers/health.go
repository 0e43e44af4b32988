package handlers

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// healthTimeout bounds the database checks of a health check.
const healthTimeout = 2 * time.Second

// SchemaChecker is implemented by a database that can tell whether its
// migrations are the ones this binary expects (store.Store.CheckSchema).
// /healthz checks it when Config.DB implements it.
type SchemaChecker interface {
	CheckSchema(ctx context.Context) error
}

// handleHealth answers 200 "ok" when the database answers a query and its
// migrations are current, and 503 otherwise. Load balancers and the process
// test poll it.
func (h *Handler) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
	defer cancel()
	if err := h.db.Ping(ctx); err != nil {
		h.fail(w, r, fmt.Errorf("%w: %w", errUnavailable, err))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if sc, ok := h.db.(SchemaChecker); ok {
		if err := sc.CheckSchema(ctx); err != nil {
			h.log.ErrorContext(ctx, "health check", "err", err)
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("migrations not current\n"))
			return
		}
	}
	_, _ = w.Write([]byte("ok\n"))
}
