package handlers

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"satranc/static"
)

// Pinger is the part of the database the health check needs.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Config holds what the handlers depend on.
type Config struct {
	// Logger receives the request log and internal errors; nil discards.
	Logger *slog.Logger
	// DB is pinged by /healthz.
	DB Pinger
}

// Handler serves Satranç's HTTP routes.
type Handler struct {
	log *slog.Logger
	db  Pinger
}

// New returns a Handler using the dependencies in cfg.
func New(cfg Config) *Handler {
	h := &Handler{log: cfg.Logger, db: cfg.DB}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	return h
}

// Routes returns the router with every route and the middleware.
func (h *Handler) Routes() http.Handler {
	r := chi.NewRouter()
	r.Use(h.logRequests)
	r.Use(h.recoverPanics)
	r.Use(securityHeaders)
	r.Use(middleware.GetHead) // HEAD is answered by the GET handler

	r.NotFound(h.handleNotFound)

	r.Get("/", h.handleHome)
	r.Get("/healthz", h.handleHealth)
	r.Handle(static.Prefix+"*", h.staticFiles())
	return r
}

// render writes component c as a complete HTML response with the given
// status. The output is buffered, so a rendering error still becomes a
// proper error response instead of half a page.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	var buf bytes.Buffer
	if err := c.Render(r.Context(), &buf); err != nil {
		h.fail(w, r, err)
		return
	}
	writeHTML(w, status, buf.Bytes())
}

func writeHTML(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(body) // the client may be gone; nothing useful to do then
}
