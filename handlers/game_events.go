package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"satranc/views"
)

// DefaultClockSync is how often a live game's stream sends the clocks
// when no move carried them. The page counts down from the clocks of the
// latest event on its own monotonic clock (board.js), so an update
// corrects nothing but a page that missed an event; what the updates do
// is keep the stream busy for proxies and tell a stream whose client went
// away. At 5 s, as long as the think of a blitz player, the moves of
// half the games came just after an update: some 7% of the server's CPU
// at 10,000 games went to updates that changed nothing on the page
// (docs/performance.md, "Clock updates"). Lichess sends none between
// moves.
const DefaultClockSync = 10 * time.Second

// handleGameEvents streams a game to one viewer (DESIGN.md "How a move
// flows"): a full snapshot first, so that a reconnecting page catches up
// whatever it missed, then the panel again after every change, with the ply
// as the event id. A player's open stream is their connection to the
// table: when it ends, the 45-second countdown starts.
func (h *Handler) handleGameEvents(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// Subscribe before the snapshot, so that no change falls between them.
	h.streamGame(w, r, id, h.followLocal(id))
}

// streamGame streams game id to one viewer from feed, which it closes.
// Over HTTP/1.1 a spectator's stream is taken out of net/http when it can
// be (see sse_detach.go): it outlives the handler, and a spectator who
// leaves is noticed at the stream's next write (a clock update or a
// heartbeat), or at the next check that the client is still there
// (peerGone). A player's stream stays with net/http, which notices at
// once that the client went away: the 45-second countdown starts then.
// Over HTTP/2 every stream is handed off (sse_handoff.go), and net/http
// still tells when its client goes away.
func (h *Handler) streamGame(w http.ResponseWriter, r *http.Request, id int64, feed GameFeed) {
	ctx := r.Context()
	snap, err := feed.Snapshot(ctx)
	if err != nil {
		feed.Close()
		h.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	gs := &gameStream{h: h, id: id, feed: feed, deltas: q.Get("delta") == views.DeltaVersion, first: snap} // spectators get nothing of the chat and voice chat
	gs.prepare()
	if known, err := strconv.ParseInt(q.Get("rematch"), 10, 64); err == nil && known >= 0 {
		gs.rematch, gs.pageRematch = known, true
	}
	// A stream that resumes after events (Last-Event-ID) has a page that
	// shows more than it was drawn with: it gets the whole panel.
	if r.Header.Get("Last-Event-ID") == "" {
		gs.pageKey = q.Get("shown")
	}
	if user, ok := userFrom(ctx); ok {
		gs.viewer.side, gs.viewer.playing = snap.SideOf(user.ID)
	}
	if !gs.viewer.playing && h.detachGameStream(w, r, gs) {
		return
	}
	base := h.baseURL(r)
	if handOff(r, func(ctx context.Context, w http.ResponseWriter) handedOffStream {
		if err := gs.start(ctx, w, base); err != nil {
			h.log.DebugContext(ctx, "game stream", "game", id, "err", err)
			return nil
		}
		return gs
	}) {
		return
	}
	if err := gs.start(ctx, w, base); err != nil {
		h.fail(w, r, err)
		return
	}
	gs.serve(ctx)
}

// start sends the stream's head on w and readies it to run under ctx; a
// player's stream connects them to the table. If the stream cannot start,
// start closes the feed. base is the request's Handler.baseURL.
func (gs *gameStream) start(ctx context.Context, w http.ResponseWriter, base string) error {
	h := gs.h
	stream, err := h.startStream(ctx, w)
	if err != nil {
		gs.feed.Close()
		return err
	}
	gs.stream, gs.views = stream, newStreamViews(h, ctx, base, gs.feed, gs.id)
	if user, _ := userFrom(ctx); gs.viewer.playing {
		gs.player = user.ID
		if err := gs.feed.Connected(ctx, user.ID); err != nil {
			h.log.WarnContext(ctx, "connect to game", "game", gs.id, "err", err)
		}
		if h.lag != nil {
			h.lag.open(gs.id, user.ID)
			gs.lagUser = user.ID
		}
	}
	return nil
}

// detachGameStream serves gs, a spectator's stream, on r's connection
// taken out of net/http, in a goroutine of its own; it reports false,
// having done nothing, when the connection cannot be taken (then the
// handler streams through w).
func (h *Handler) detachGameStream(w http.ResponseWriter, r *http.Request, gs *gameStream) bool {
	if !h.detached.add() {
		return false // shutting down: the request's context ends the stream
	}
	ctx := streamContext(h.detached.ctx, r.Context())
	stream, sink, err := detachSSE(ctx, w, r, h.streamWrite)
	if errors.Is(err, http.ErrNotSupported) {
		h.detached.done()
		return false
	}
	if err != nil {
		h.detached.done()
		gs.feed.Close()
		h.log.DebugContext(ctx, "game stream", "game", gs.id, "err", err)
		return true
	}
	gs.stream, gs.views, gs.conn = stream, newStreamViews(h, ctx, h.baseURL(r), gs.feed, gs.id), sink.conn
	go func() {
		defer h.detached.done()
		defer sink.Close()
		gs.serve(ctx) // closes the stream and the feed
	}()
	return true
}

// streamContext returns base with what rendering a stream's events reads
// of the request's context req: the user and the page's language. A
// stream that outlives its request keeps these, not req, whose chain
// holds the request and every middleware's values.
func streamContext(base, req context.Context) context.Context {
	ctx := views.WithLocale(base, views.LocaleFrom(req))
	if u, ok := userFrom(req); ok {
		ctx = withUser(ctx, u)
	}
	return ctx
}
