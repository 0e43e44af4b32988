package handlers

import (
	"context"
	"net/http"
	"net/url"
)

// Owners is a node of a cluster, several nodes on one database
// (handlers/cluster.Node, docs/scaling.md): it says which node runs each
// live game's writer, the lobby's queues and a private invitation's game.
// nil: a single node, which serves everything itself.
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

// Forwarder is the middleware of a cluster's node (handlers/cluster.Node
// is an Owners and a Forwarder): a request about a live game another
// node owns (its page, stream, moves, resignation, chat ...) is forwarded
// to that node whole, so that the one writer of the game serves it; the
// player's browser stays connected to the node it reached. Owners that
// are not a Forwarder have every request served here.
type Forwarder interface {
	// Forward returns next behind the cluster's forwarding: a request
	// about what another node owns is relayed there, and its answer
	// back, unless here serves it. What a request is about is named by
	// its route: a game by the parameter {id}, a private invitation by
	// {token}, and the lobby's queues, which one node runs, by a route
	// with neither. A request another node forwarded is served by next.
	Forward(next http.Handler, here Forwarding) http.Handler
	// Forwarded reports whether r was forwarded by another node of the
	// cluster: its ForwardedHeader carries the cluster's secret. A
	// client's own header is not.
	Forwarded(r *http.Request) bool
}

// Forwarding is what the cluster's forwarding asks of the handlers.
type Forwarding struct {
	// ServeHere serves, if it can, a request that another node owns and
	// reports whether it did: a game's event stream is served from the
	// bus where the viewer is (game_feed.go), when there is one.
	ServeHere func(w http.ResponseWriter, r *http.Request) bool
	// Unavailable answers a request whose owner does not answer.
	Unavailable http.HandlerFunc
}

// ForwardedHeader marks a request one node forwarded to another, which
// serves it itself whatever it thinks of the owner: a request goes one
// hop at most. Its value is the cluster's secret (Forwarder.Forwarded):
// a client that sets it is treated as any other client.
const ForwardedHeader = "X-Satranc-Forwarded"

// forward mounts the cluster's forwarding (Forwarder) on the routes
// of a game, an invitation or the lobby's queues.
func (h *Handler) forward(next http.Handler) http.Handler {
	f, ok := h.owners.(Forwarder)
	if !ok { // a single node (nil Owners), or Owners that forward nothing
		return next
	}
	return f.Forward(next, Forwarding{
		ServeHere:   h.serveFromBus,
		Unavailable: func(w http.ResponseWriter, r *http.Request) { h.fail(w, r, errUnavailable) },
	})
}
