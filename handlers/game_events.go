package handlers

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// DefaultClockSync is how often a live game's stream sends the clocks.
const DefaultClockSync = 5 * time.Second

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
// A spectator's stream is taken out of net/http when it can be (see
// sse_detach.go): it outlives the handler, and a spectator who leaves is
// noticed at the stream's next write (a clock update or a heartbeat), or
// at the next check that the client is still there (peerGone). A
// player's stream stays with net/http, which notices at once that the
// client went away: the 45-second countdown starts then.
func (h *Handler) streamGame(w http.ResponseWriter, r *http.Request, id int64, feed GameFeed) {
	ctx := r.Context()
	snap, err := feed.Snapshot(ctx)
	if err != nil {
		feed.Close()
		h.fail(w, r, err)
		return
	}
	gs := &gameStream{h: h, id: id, feed: feed} // spectators get nothing of the chat and voice chat
	if user, ok := userFrom(ctx); ok {
		gs.viewer.side, gs.viewer.playing = snap.SideOf(user.ID)
	}
	if !gs.viewer.playing && h.detachGameStream(w, r, gs) {
		return
	}
	defer feed.Close()
	if user, _ := userFrom(ctx); gs.viewer.playing {
		if err := feed.Connected(ctx, user.ID); err != nil {
			h.log.WarnContext(ctx, "connect to game", "game", id, "err", err)
		}
		defer feed.Disconnected(user.ID)
		if h.lag != nil {
			h.lag.open(id, user.ID)
			defer h.lag.close(id, user.ID)
			gs.lagUser = user.ID
		}
	}
	if gs.stream, err = h.newStream(w, r); err != nil {
		h.fail(w, r, err)
		return
	}
	defer gs.stream.close()
	gs.views = newStreamViews(h, ctx, h.baseURL(r), feed)
	gs.run(ctx)
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
	gs.stream, gs.views, gs.conn = stream, newStreamViews(h, ctx, h.baseURL(r), gs.feed), sink.conn
	go func() {
		defer h.detached.done()
		defer gs.feed.Close()
		defer sink.Close()
		defer stream.close()
		gs.run(ctx)
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

// gameStream is one viewer's stream of a game.
type gameStream struct {
	h      *Handler
	id     int64
	feed   GameFeed
	viewer gameViewer
	stream *sseWriter
	views  *streamViews
	// conn is the connection of a stream taken out of net/http, checked
	// for a client gone at each tick (peerGone); nil under net/http.
	conn      net.Conn
	lastWrite time.Time // of the latest panel, clocks or heartbeat
	// lagUser is the player whose round trip the stream's pings measure
	// (lag.go), 0 for none; live says the game was live at the latest
	// panel: only then are there pings.
	lagUser int64
	live    bool
	// sent says the first panel went out; rematch is the rematch the
	// page knows of (0: none). A rematch that appears during the stream
	// sends a player's page there (views.EventRematch).
	sent    bool
	rematch int64
}

// errClientGone ends a stream whose client closed the connection.
var errClientGone = errors.New("handlers: sse: the client went away")

// run sends the snapshot, then the panel after every change and the
// clocks every few seconds, until ctx ends, the client goes away or the
// feed ends. All the work is done on stacks of its own (onOwnStack): the
// stream's goroutine only waits, and its stack stays at the smallest.
func (gs *gameStream) run(ctx context.Context) {
	h := gs.h
	defer h.metrics.streamStarted()()
	if err := onOwnStack(func() error { return gs.send(ctx) }); err != nil {
		h.log.DebugContext(ctx, "game stream", "game", gs.id, "err", err)
		return
	}
	// Clock updates between moves correct the page's own countdown; they
	// also keep proxies from closing a quiet stream, as the heartbeat does
	// once the game is over. Every panel carries the clocks, so a game
	// moving faster than clockSync needs no update between its moves: with
	// thousands of streams they would cost as much as the moves.
	sync := time.NewTicker(h.clockSync)
	defer sync.Stop()
	gs.lastWrite = time.Now()
	// A player's stream pings the page to measure the round trip (lag.go):
	// at once, then every lagPing.
	var pingC <-chan time.Time
	if gs.lagUser != 0 {
		pings := time.NewTicker(h.lagPing)
		defer pings.Stop()
		pingC = pings.C
		if err := gs.ping(); err != nil {
			h.log.DebugContext(ctx, "game stream", "game", gs.id, "err", err)
			return
		}
	}
	for {
		var err error
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-gs.feed.Events():
			if !ok {
				return // dropped for falling behind: the page reconnects for a fresh snapshot
			}
			// One render covers a burst of events; voice signals go one by one.
			burst, open := appendWaiting([]play.Event{ev}, gs.feed.Events())
			var rendered bool
			err = onOwnStack(func() (err error) {
				rendered, err = gs.deliver(ctx, burst)
				return err
			})
			if err == nil && !open {
				return
			}
			if rendered {
				// The panel carried the clocks: the next update is due
				// only after clockSync without one.
				sync.Reset(h.clockSync)
			}
		case now := <-sync.C:
			err = onOwnStack(func() error { return gs.tick(ctx, now) })
		case <-pingC:
			err = gs.ping()
		}
		if err != nil {
			h.log.DebugContext(ctx, "game stream", "game", gs.id, "err", err)
			return
		}
	}
}

// send sends the game's panel as it stands, with the ply as the event id.
func (gs *gameStream) send(ctx context.Context) error {
	snap, err := gs.feed.Snapshot(ctx)
	if err != nil {
		return err
	}
	gs.live = snap.Status == game.Active
	gs.stream.startWrite()
	if err := gs.stream.renderEvent(ctx, strconv.Itoa(snap.Ply), views.EventGame, views.GamePanel(gs.views.panel(snap))); err != nil {
		return err
	}
	if err := gs.sendRematch(ctx, snap); err != nil {
		return err
	}
	return gs.stream.flush()
}

// sendRematch sends a player's page to the rematch of snap when it
// appears during the stream (both players agreed): an EventRematch with
// the link, which the page follows. A page that knew of it when the
// stream began (a reload) is left where it is, with the link in its
// panel.
func (gs *gameStream) sendRematch(ctx context.Context, snap play.Snapshot) error {
	first := !gs.sent
	gs.sent = true
	if snap.RematchID == gs.rematch {
		return nil
	}
	gs.rematch = snap.RematchID
	if first || !gs.viewer.playing {
		return nil
	}
	path := views.Action(ctx, "/games/"+strconv.FormatInt(snap.RematchID, 10))
	return gs.stream.renderEvent(ctx, "", views.EventRematch, views.RematchGo(path))
}

// ping sends a player's page of a live game a ping of the lag
// measurement, which the page echoes (lag.go).
func (gs *gameStream) ping() error {
	if gs.lagUser == 0 || !gs.live {
		return nil
	}
	now := time.Now()
	nonce, ok := gs.h.lag.ping(gs.id, gs.lagUser, now)
	if !ok {
		return nil
	}
	gs.lastWrite = now
	return gs.stream.event("", views.EventLagPing, []byte(nonce))
}

// deliver writes a burst of the game's events (forward) and observes the
// moves' latency.
func (gs *gameStream) deliver(ctx context.Context, burst []play.Event) (rendered bool, err error) {
	if rendered, err = forward(gs.stream, burst, gs.viewer, gs.views, func() error { return gs.send(ctx) }); err != nil {
		return false, err
	}
	now := time.Now()
	gs.h.metrics.movesWritten(burst, now)
	if rendered {
		gs.lastWrite = now
	}
	return rendered, nil
}

// tick sends a live timed game's clocks, or a heartbeat when nothing was
// sent for a while. A stream taken out of net/http first checks that its
// client is still there.
func (gs *gameStream) tick(ctx context.Context, now time.Time) error {
	if gs.conn != nil && peerGone(gs.conn) {
		return errClientGone
	}
	sent, err := sendClocks(ctx, gs.stream, gs.feed, gs.views)
	if err == nil && !sent && now.Sub(gs.lastWrite) >= gs.h.heartbeat {
		err = gs.stream.comment("ping")
		sent = true
	}
	if sent {
		gs.lastWrite = now
	}
	return err
}

// sendClocks sends both clocks of a live timed game as they stand, in
// one write; it reports whether it sent anything.
func sendClocks(ctx context.Context, stream *sseWriter, feed GameFeed, sv *streamViews) (bool, error) {
	snap, err := feed.Snapshot(ctx)
	if err != nil || snap.Status != game.Active || !snap.Clocks.Timed {
		return false, err
	}
	top, bottom := sv.clocks(snap)
	stream.startWrite()
	for _, p := range []views.PlayerView{top, bottom} {
		if err := stream.renderEvent(ctx, "", views.ClockEvent(p.Side), views.Clock(p)); err != nil {
			return false, err
		}
	}
	return true, stream.flush()
}

// onOwnStack runs fn in a goroutine of its own and waits for it. A stream
// spends its life waiting for events with little on its stack, but
// rendering a panel takes a deep one; a goroutine's stack only grows (a
// garbage collection shrinks it by half at most, and only while it uses
// less than a quarter), so rendering on the stream's own goroutine would
// leave every idle stream holding a render-sized stack.
func onOwnStack(fn func() error) error {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	return <-done
}

// drain empties c of events already waiting, without blocking.
func drain[E any](c <-chan E) {
	for {
		select {
		case _, ok := <-c:
			if !ok {
				return
			}
		default:
			return
		}
	}
}
