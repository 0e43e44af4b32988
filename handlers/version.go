package handlers

import (
	"net/http"

	"satranc/views"
)

// setVersion puts the server's version into the request context, where
// the footer finds it (views.Version).
func (h *Handler) setVersion(next http.Handler) http.Handler {
	if h.version == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(views.WithVersion(r.Context(), h.version)))
	})
}
