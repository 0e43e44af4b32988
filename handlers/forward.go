package handlers

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
)

// Owners says which node runs a live game's writer when several nodes
// share one database (docs/scaling.md). A request about a game that
// another node owns (its page, stream, moves, resignation, chat ...) is
// forwarded to that node whole, so the one writer of the game serves it;
// the player's browser stays connected to the node it reached. The game's
// event stream is served here from the bus instead, when there is one
// (game_feed.go), and forwarded too otherwise.
type Owners interface {
	// GameOwner returns the base URL of the node that owns game id, or
	// nil when this node may serve it (it owns the game, or nobody does:
	// then serving it here claims it).
	GameOwner(ctx context.Context, id int64) (*url.URL, error)
	// InviteOwner is GameOwner for the game of a private invite token.
	InviteOwner(ctx context.Context, token string) (*url.URL, error)
	// LobbyOwner returns the base URL of the node that runs the lobby's
	// queues, so that players waiting on any node are paired together,
	// or nil when this node does (it holds the role, or takes it).
	LobbyOwner(ctx context.Context) (*url.URL, error)
}

// forwardedHeader marks a request one node forwarded to another, which
// serves it itself whatever it thinks of the owner: a request goes one
// hop at most. A client that sets it only gets served by a node that
// refuses the game's actions if it does not own the game (play.Config.Claim).
const forwardedHeader = "X-Satranc-Forwarded"

// forwardGame forwards a request under /games/{id} to the game's owner.
func (h *Handler) forwardGame(next http.Handler) http.Handler {
	return h.forwardTo(next, func(r *http.Request) (*url.URL, error) {
		id, err := gameID(r)
		if err != nil {
			return nil, nil // not a game: the route answers 404
		}
		return h.owners.GameOwner(r.Context(), id)
	})
}

// forwardInvite forwards the acceptance of an invite to the game's owner.
func (h *Handler) forwardInvite(next http.Handler) http.Handler {
	return h.forwardTo(next, func(r *http.Request) (*url.URL, error) {
		return h.owners.InviteOwner(r.Context(), strings.TrimSpace(chi.URLParam(r, "token")))
	})
}

// forwardLobby forwards a request about the lobby's queues (joining,
// leaving, the waiting page and its stream) to the node that runs them.
func (h *Handler) forwardLobby(next http.Handler) http.Handler {
	return h.forwardTo(next, func(r *http.Request) (*url.URL, error) {
		return h.owners.LobbyOwner(r.Context())
	})
}

// forwardTo serves the request with next, unless owner names another node:
// then it relays the request there and the answer back.
func (h *Handler) forwardTo(next http.Handler, owner func(*http.Request) (*url.URL, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.owners == nil || r.Header.Get(forwardedHeader) != "" {
			next.ServeHTTP(w, r)
			return
		}
		target, err := owner(r)
		if err != nil {
			// Serving here is safe: the game's writer starts only where
			// its claim succeeds.
			h.log.Warn("forward: owner unknown; serving here", "path", r.URL.Path, "err", err)
		}
		switch {
		case target == nil:
			next.ServeHTTP(w, r)
			return
		case h.serveFromBus(w, r): // a game's stream, served here
			return
		}
		restoreForm(r)
		if strings.HasSuffix(r.URL.Path, "/events") {
			// A stream lasts: lift the server's write timeout, as the
			// stream handler does on the owner (which keeps its own).
			_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
		}
		h.forwarder(target).ServeHTTP(w, r)
	})
}

// restoreForm gives a POST, whose body limitForms has read, a body again
// to be sent on: its form, URL-encoded (a multipart form too; any other
// body, which no route reads, is not sent on).
func restoreForm(r *http.Request) {
	if r.Method != http.MethodPost || r.PostForm == nil {
		return
	}
	body := r.PostForm.Encode()
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Body = io.NopCloser(strings.NewReader(body))
	r.ContentLength = int64(len(body))
}

// forwardTransport carries forwarded requests. An owner that does not
// answer (paused, or gone without closing its connections) fails the
// request within seconds, with 503, instead of holding it: the page
// retries, and once the owner's lease lapses another node takes the game.
// Only the wait for the answer's headers is bounded, so a relayed event
// stream lasts.
var forwardTransport = &http.Transport{
	DialContext:           (&net.Dialer{Timeout: 2 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	ResponseHeaderTimeout: 5 * time.Second,
	MaxIdleConnsPerHost:   32,
	IdleConnTimeout:       90 * time.Second,
}

// forwarder relays requests to the node at target. The Host header stays
// the one the browser sent, so that the owner checks the same origin and
// builds the same links; the event stream's lines are passed on as they
// come (httputil.ReverseProxy flushes text/event-stream at once).
func (h *Handler) forwarder(target *url.URL) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Transport: forwardTransport,
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host
			pr.Out.Header.Set(forwardedHeader, "1")
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if r.Context().Err() != nil {
				return // the browser went away
			}
			h.log.Warn("forward: owner unreachable", "owner", target.String(), "path", r.URL.Path, "err", err)
			h.fail(w, r, errUnavailable)
		},
	}
}
