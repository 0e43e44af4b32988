package handlers

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"satranc/views"
)

// homeWatchLimit is how many games the home page shows, the first of the
// Watch page's list.
const homeWatchLimit = 3

// watchRoutes adds the Watch page and its stream, open to guests.
func (h *Handler) watchRoutes(r chi.Router) {
	r.Get("/watch", h.handleWatch)
	r.Get("/watch/events", h.handleWatchEvents)
}

// handleWatch lists the games in progress, best-rated first (watchHub).
func (h *Handler) handleWatch(w http.ResponseWriter, r *http.Request) {
	games := h.watch.list(r.Context(), watchLimit)
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.WatchPage(views.MiniGamesAt(games, time.Now())))
}

// handleWatchEvents streams the Watch list to one watcher (?home=1: the
// home page's first few games): the list at once, then a game's
// mini-board after each of its moves and the whole list again when games
// start or end. Like a spectator's game stream it is taken out of
// net/http when it can be (sse_detach.go): watchers spend hours idle.
func (h *Handler) handleWatchEvents(w http.ResponseWriter, r *http.Request) {
	ws := &watchStream{h: h, n: watchLimit}
	ws.prepare()
	if r.URL.Query().Get("home") == "1" {
		ws.n, ws.home = homeWatchLimit, true
	}
	if h.detached.add() {
		ctx := streamContext(h.detached.ctx, r.Context())
		stream, sink, err := detachSSE(ctx, w, r, h.streamWrite)
		switch {
		case err == nil:
			go func() {
				defer h.detached.done()
				defer sink.Close()
				ws.conn, ws.stream = sink.conn, stream
				ws.serve(ctx) // closes the stream
			}()
			return
		case !errors.Is(err, http.ErrNotSupported):
			h.detached.done()
			h.log.DebugContext(ctx, "watch stream", "err", err)
			return
		}
		h.detached.done()
	}
	h.serveEventStream(w, r, "watch stream", ws)
}

// watchStream is one watcher's stream of the Watch list.
type watchStream struct {
	h *Handler
	// n is how many games of the list the page shows; home says it is the
	// home page's (views.HomeWatchList).
	n    int
	home bool
	// conn is the connection of a stream taken out of net/http, checked
	// for a client gone at each tick (peerGone); nil under net/http.
	conn net.Conn
	// shown are the games on the page: the others' moves are not sent.
	shown     map[int64]bool
	lastWrite time.Time
	// stream is where the events go, sub the list's changes; pace wakes
	// the stream for its checks and heartbeats (begin, the game streams'
	// pacer); uncount ends the stream's count in the metrics.
	stream  *sseWriter
	sub     *watchSub
	pace    *paced
	uncount func()
	// ctx is the stream's context, set when it starts to serve; own runs
	// its work, the functions below (prepare), off its goroutine, event
	// being the one to send (ownStack).
	ctx                      context.Context
	own                      *ownStack
	event                    *watchEvent
	beginFn, eventFn, pingFn func() error
}

func (ws *watchStream) attach(s *sseWriter) { ws.stream = s }

// prepare makes what the stream's wakes reuse, before the stream serves.
func (ws *watchStream) prepare() {
	ws.own = newOwnStack()
	ws.beginFn = func() error { return ws.begin(ws.ctx) }
	ws.eventFn = func() error { return ws.sendEvent(ws.ctx, ws.event) }
	ws.pingFn = func() error { return ws.stream.comment("ping") }
}

// serve sends the list on ws.stream, then what changes, until ctx ends,
// the client goes away or the hub drops the watcher; then it closes the
// stream. As a game stream's (gameStream.serve), its work is done on
// stacks of its own: the stream's goroutine only waits (wait), a few
// frames from its top.
func (ws *watchStream) serve(ctx context.Context) {
	ws.ctx = ctx
	defer ws.finish()
	err := ws.own.run(ws.beginFn)
	if err == nil {
		err = ws.wait(ctx)
	}
	if err != nil {
		ws.logEnd(ctx, err)
	}
}

// begin counts the stream as open, subscribes it to the list and sends
// the list; then it starts pacing the stream: every few seconds, as a
// game stream's clocks, the stream checks that the client is still there (a
// stream taken out of net/http) and sends a heartbeat when idle.
func (ws *watchStream) begin(ctx context.Context) error {
	h := ws.h
	ws.uncount = h.metrics.streamStarted()
	sub, games := h.watch.subscribe(ctx)
	ws.sub = sub
	if err := ws.sendList(ctx, games); err != nil {
		return err
	}
	ws.pace = h.pacer.add(time.Now().Add(h.clockSync))
	return nil
}

// finish stops the pacing and the subscription, and closes the stream.
func (ws *watchStream) finish() {
	if ws.pace != nil {
		ws.h.pacer.remove(ws.pace)
	}
	if ws.sub != nil {
		ws.h.watch.unsubscribe(ws.sub)
	}
	if ws.uncount != nil {
		ws.uncount()
	}
	ws.stream.close()
}

// wait is the stream's loop, which only waits (gameStream.wait).
func (ws *watchStream) wait(ctx context.Context) error {
	for {
		var err error
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-ws.sub.c:
			if !ok {
				return nil // dropped, or the server stops: the page reconnects
			}
			err = ws.onEvent(e)
		case <-ws.pace.wake:
			err = ws.onTick(time.Now())
		}
		if err != nil {
			return err
		}
	}
}

// onEvent sends the list again, or the board of a game on the page that
// moved.
func (ws *watchStream) onEvent(e *watchEvent) error {
	if e.list == nil && e.game.ID != 0 && !ws.shown[e.game.ID] {
		return nil
	}
	ws.event = e
	err := ws.own.run(ws.eventFn)
	ws.event = nil
	return err
}

// sendEvent sends the list again, or the board of the game that moved.
func (ws *watchStream) sendEvent(ctx context.Context, e *watchEvent) error {
	if e.list != nil || e.game.ID == 0 {
		return ws.sendList(ctx, e.list)
	}
	g := e.game.AtTime(time.Now())
	return ws.send(ctx, views.WatchGameEvent(g.ID), views.MiniGameLink(g))
}

// onTick ends a stream whose client went away, and sends a heartbeat
// after heartbeat without a write.
func (ws *watchStream) onTick(now time.Time) error {
	ws.h.pacer.set(ws.pace, now.Add(ws.h.clockSync))
	switch {
	case ws.conn != nil && peerGone(ws.conn):
		return errClientGone
	case now.Sub(ws.lastWrite) >= ws.h.heartbeat:
		ws.lastWrite = now
		return ws.own.run(ws.pingFn)
	}
	return nil
}

// logEnd logs why the stream ended, out of line as gameStream.logEnd.
//
//go:noinline
func (ws *watchStream) logEnd(ctx context.Context, err error) {
	ws.h.log.DebugContext(ctx, "watch stream", "err", err)
}

// sendList sends the first n games of the list.
func (ws *watchStream) sendList(ctx context.Context, games []views.MiniGame) error {
	games = views.MiniGamesAt(games[:min(ws.n, len(games))], time.Now())
	ws.shown = make(map[int64]bool, len(games))
	for _, g := range games {
		ws.shown[g.ID] = true
	}
	c := views.WatchList(games)
	if ws.home {
		c = views.HomeWatchList(games)
	}
	return ws.send(ctx, views.EventWatchList, c)
}

// send writes one event.
func (ws *watchStream) send(ctx context.Context, name string, c templ.Component) error {
	ws.stream.startWrite()
	if err := ws.stream.renderEvent(ctx, "", name, c); err != nil {
		return err
	}
	ws.lastWrite = time.Now()
	return ws.stream.flush()
}
