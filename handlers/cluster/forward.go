package cluster

import (
	"context"
	"crypto/subtle"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"satranc/handlers"
)

// owners says which node owns what a request is about (Node: from the
// leases and roles in the database).
type owners interface {
	GameOwner(ctx context.Context, id int64) (*url.URL, error)
	InviteOwner(ctx context.Context, token string) (*url.URL, error)
	LobbyOwner(ctx context.Context) (*url.URL, error)
}

// Forward is handlers.Forwarder.Forward: the one middleware through which
// the handlers send a request about a game, an invitation or the lobby's
// queues to the node that owns it.
func (n *Node) Forward(next http.Handler, here handlers.Forwarding) http.Handler {
	return forward(n, n.secret, n.log, next, here)
}

// Forwarded is handlers.Forwarder.Forwarded: r carries the cluster's
// secret, so another node forwarded it.
func (n *Node) Forwarded(r *http.Request) bool { return forwardedWith(r, n.secret) }

// forwardedWith reports whether r's ForwardedHeader is secret (compared
// in constant time: a client must not learn it a byte at a time).
func forwardedWith(r *http.Request, secret string) bool {
	mark := r.Header.Get(handlers.ForwardedHeader)
	return secret != "" && subtle.ConstantTimeCompare([]byte(mark), []byte(secret)) == 1
}

// The handlers forward through a node only if it is a Forwarder.
var _ handlers.Forwarder = (*Node)(nil)

// forward serves a request with next, unless o names another node as the
// owner of what the request is about (ownerOf): then here.ServeHere gets
// the first chance at it, and otherwise the request is relayed to the
// owner, marked with the cluster's secret, and its answer back. A request
// another node forwarded (it carries the secret) is served here.
func forward(o owners, secret string, log *slog.Logger, next http.Handler, here handlers.Forwarding) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if forwardedWith(r, secret) {
			next.ServeHTTP(w, r) // one hop at most
			return
		}
		r.Header.Del(handlers.ForwardedHeader) // a client's own: not a mark
		target, err := ownerOf(o, r)
		if err != nil {
			// Serving here is safe: the game's writer starts only where
			// its claim succeeds.
			log.Warn("forward: owner unknown; serving here", "path", r.URL.Path, "err", err)
		}
		switch {
		case target == nil:
			next.ServeHTTP(w, r)
			return
		case here.ServeHere != nil && here.ServeHere(w, r): // a game's stream, from the bus
			return
		}
		restoreForm(r)
		if strings.HasSuffix(r.URL.Path, "/events") {
			// A stream lasts: lift the server's write timeout, as the
			// stream handler does on the owner (which keeps its own).
			_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
		}
		forwarder(target, secret, log, here.Unavailable).ServeHTTP(w, r)
	})
}

// ownerOf returns the node that owns what r is about, as its route names
// it (handlers.Forwarder): game {id}, invitation {token}, or else
// the lobby; nil when this node serves it.
func ownerOf(o owners, r *http.Request) (*url.URL, error) {
	if p := chi.URLParam(r, "id"); p != "" {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil || id <= 0 {
			return nil, nil // not a game: the route answers 404
		}
		return o.GameOwner(r.Context(), id)
	}
	if token := chi.URLParam(r, "token"); token != "" {
		return o.InviteOwner(r.Context(), strings.TrimSpace(token))
	}
	return o.LobbyOwner(r.Context())
}

// restoreForm gives a POST, whose body the handlers' form limit has read,
// a body again to be sent on: its form, URL-encoded (a multipart form
// too; any other body, which no route reads, is not sent on).
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

// forwarder relays requests to the node at target; unavailable answers
// when it does not answer. The Host header stays the one the browser
// sent, so that the owner checks the same origin and builds the same
// links; the event stream's lines are passed on as they come
// (httputil.ReverseProxy flushes text/event-stream at once).
func forwarder(target *url.URL, secret string, log *slog.Logger, unavailable http.HandlerFunc) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Transport: forwardTransport,
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host
			pr.Out.Header.Set(handlers.ForwardedHeader, secret)
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if r.Context().Err() != nil {
				return // the browser went away
			}
			log.Warn("forward: owner unreachable", "owner", target.String(), "path", r.URL.Path, "err", err)
			if unavailable == nil {
				http.Error(w, http.StatusText(http.StatusServiceUnavailable), http.StatusServiceUnavailable)
				return
			}
			unavailable(w, r)
		},
	}
}
