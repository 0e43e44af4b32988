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
				defer stream.close()
				ws.conn = sink.conn
				ws.run(ctx, stream)
			}()
			return
		case !errors.Is(err, http.ErrNotSupported):
			h.detached.done()
			h.log.DebugContext(ctx, "watch stream", "err", err)
			return
		}
		h.detached.done()
	}
	if handOff(r, func(ctx context.Context, w http.ResponseWriter) func() {
		stream, err := h.startStream(ctx, w)
		if err != nil {
			h.log.DebugContext(ctx, "watch stream", "err", err)
			return nil
		}
		return func() {
			defer stream.close()
			ws.run(ctx, stream)
		}
	}) {
		return
	}
	stream, err := h.newStream(w, r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer stream.close()
	ws.run(r.Context(), stream)
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
}

// run sends the list, then what changes, until ctx ends, the client goes
// away or the hub drops the watcher.
func (ws *watchStream) run(ctx context.Context, stream *sseWriter) {
	h := ws.h
	defer h.metrics.streamStarted()()
	sub, games := h.watch.subscribe(ctx)
	defer h.watch.unsubscribe(sub)
	if err := ws.sendList(ctx, stream, games); err != nil {
		h.log.DebugContext(ctx, "watch stream", "err", err)
		return
	}
	// Every few seconds, as a game stream's clocks: check that the client
	// is still there (a stream taken out of net/http), and send a
	// heartbeat when idle.
	tick := time.NewTicker(h.clockSync)
	defer tick.Stop()
	for {
		var err error
		select {
		case <-ctx.Done():
			return
		case e, ok := <-sub.c:
			if !ok {
				return // dropped, or the server stops: the page reconnects
			}
			if e.list != nil || e.game.ID == 0 {
				err = ws.sendList(ctx, stream, e.list)
			} else if ws.shown[e.game.ID] {
				err = onOwnStack(func() error {
					g := e.game.AtTime(time.Now())
					return ws.send(ctx, stream, views.WatchGameEvent(g.ID), views.MiniGameLink(g))
				})
			}
		case now := <-tick.C:
			switch {
			case ws.conn != nil && peerGone(ws.conn):
				err = errClientGone
			case now.Sub(ws.lastWrite) >= h.heartbeat:
				ws.lastWrite = now
				err = onOwnStack(func() error { return stream.comment("ping") })
			}
		}
		if err != nil {
			h.log.DebugContext(ctx, "watch stream", "err", err)
			return
		}
	}
}

// sendList sends the first n games of the list.
func (ws *watchStream) sendList(ctx context.Context, stream *sseWriter, games []views.MiniGame) error {
	games = views.MiniGamesAt(games[:min(ws.n, len(games))], time.Now())
	ws.shown = make(map[int64]bool, len(games))
	for _, g := range games {
		ws.shown[g.ID] = true
	}
	c := views.WatchList(games)
	if ws.home {
		c = views.HomeWatchList(games)
	}
	return onOwnStack(func() error { return ws.send(ctx, stream, views.EventWatchList, c) })
}

// send writes one event.
func (ws *watchStream) send(ctx context.Context, stream *sseWriter, name string, c templ.Component) error {
	stream.startWrite()
	if err := stream.renderEvent(ctx, "", name, c); err != nil {
		return err
	}
	ws.lastWrite = time.Now()
	return stream.flush()
}
