package handlers

import (
	"bytes"
	"context"
	"errors"
	"net/http"

	"satranc/views"
)

// Errors the handlers themselves produce. Engine and store errors are
// mapped here as well once the handlers call them.
var (
	errNotFound    = errors.New("handlers: not found")
	errUnavailable = errors.New("handlers: service unavailable")
)

// statusOf maps err to an HTTP status and a text that is safe to show.
// Anything not recognised is a 500 whose details stay in the log.
func statusOf(err error) (int, string) {
	switch {
	case errors.Is(err, errNotFound):
		return http.StatusNotFound, "Not found"
	case errors.Is(err, errUnavailable):
		return http.StatusServiceUnavailable, "Service unavailable"
	default:
		return http.StatusInternalServerError, "Internal server error"
	}
}

// fail writes the error response for err. Server-side errors are logged
// with the request; the browser sees only the generic text.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, text := statusOf(err)
	if status >= 500 {
		if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
			// The client went away; there is nobody to answer.
			h.log.DebugContext(r.Context(), "request canceled", "method", r.Method, "path", r.URL.Path)
		} else {
			h.log.ErrorContext(r.Context(), "request failed",
				"method", r.Method, "path", r.URL.Path, "status", status, "err", err)
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	var buf bytes.Buffer
	if rerr := views.ErrorPage(status, text).Render(r.Context(), &buf); rerr != nil {
		h.log.ErrorContext(r.Context(), "render error page", "err", rerr)
		http.Error(w, text, status)
		return
	}
	writeHTML(w, status, buf.Bytes())
}

func (h *Handler) handleNotFound(w http.ResponseWriter, r *http.Request) {
	h.fail(w, r, errNotFound)
}
