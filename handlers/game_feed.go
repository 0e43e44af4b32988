package handlers

import (
	"context"
	"net/http"
	"strings"

	"satranc/engine/play"
)

// GameFeed is where one event stream of a game gets the game from: its
// snapshots, its events, and the player's presence at the table. On the
// node that owns the game it is the local service (localFeed); on
// another node of a cluster, the bus that carries the owner's events
// (docs/scaling.md), so that the stream is served where the viewer is.
type GameFeed interface {
	// Snapshot returns the game as it stands, its clocks as they were
	// read then (Clocks.At). It may be shared with the game's other
	// streams: never change it.
	Snapshot(ctx context.Context) (*play.Snapshot, error)
	// Events returns the game's events. The channel is closed when the
	// feed ends (the stream fell behind, or the bus went away): the page
	// reconnects for a fresh snapshot.
	Events() <-chan *play.Event
	// ChatMuted reports whether user muted the opponent's chat.
	ChatMuted(user int64) bool
	// Connected and Disconnected tell the game's writer that one of
	// user's streams opened or closed (play.Service.Connected).
	Connected(ctx context.Context, user int64) error
	Disconnected(user int64)
	// Close ends the feed.
	Close()
}

// GameFeeds opens feeds of games that another node owns, from the bus
// between the nodes.
type GameFeeds interface {
	// Follow subscribes to game id's events, owned by another node, and
	// takes its snapshot (in that order, so that no change falls
	// between). An error (no bus now, the owner does not answer) makes
	// the node forward the stream to the owner instead.
	Follow(ctx context.Context, id int64) (GameFeed, error)
}

// localFeed is a GameFeed of a game this node runs.
type localFeed struct {
	games Games
	chat  GameChat
	id    int64
	sub   interface {
		C() <-chan *play.Event
		Close()
	}
}

// followLocal subscribes to game id on this node's service.
func (h *Handler) followLocal(id int64) *localFeed {
	return &localFeed{games: h.games, chat: h.chat, id: id, sub: h.games.Subscribe(id)}
}

// Snapshot is GameFeed.Snapshot: the snapshot the game's writer
// published last, which every stream of the game shares (play.Service
// Shared), where the service offers it.
func (f *localFeed) Snapshot(ctx context.Context) (*play.Snapshot, error) {
	if shared, ok := f.games.(interface {
		Shared(ctx context.Context, id int64) (*play.Snapshot, error)
	}); ok {
		return shared.Shared(ctx, f.id)
	}
	snap, err := f.games.Game(ctx, f.id)
	return &snap, err
}
func (f *localFeed) Events() <-chan *play.Event { return f.sub.C() }
func (f *localFeed) ChatMuted(user int64) bool  { return f.chat.ChatMuted(f.id, user) }
func (f *localFeed) Connected(ctx context.Context, user int64) error {
	return f.games.Connected(ctx, f.id, user)
}
func (f *localFeed) Disconnected(user int64) { f.games.Disconnected(f.id, user) }
func (f *localFeed) Close()                  { f.sub.Close() }

// serveFromBus serves a game's event stream on this node, from the bus,
// when the game's owner is another node and the bus can carry its
// events; it reports whether it did (otherwise the stream is forwarded).
func (h *Handler) serveFromBus(w http.ResponseWriter, r *http.Request) bool {
	if h.feeds == nil || r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/events") {
		return false
	}
	id, err := gameID(r)
	if err != nil {
		return false
	}
	feed, err := h.feeds.Follow(r.Context(), id)
	if err != nil {
		h.log.InfoContext(r.Context(), "game stream: forwarded, not from the bus", "game", id, "err", err)
		return false
	}
	h.metrics.busStream()
	h.streamGame(w, r, id, feed)
	return true
}
