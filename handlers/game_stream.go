package handlers

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/a-h/templ"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// gameStream is one viewer's stream of a game: one loop (wait) that waits
// for the game's events and its pacer's wakes, and renders the viewer's page
// from the snapshot each event carries (play.Event.After), never asking
// the game's writer again.
type gameStream struct {
	// ctx is the stream's context, set when it starts to serve: a stream
	// is one long call, whose loop passes nothing it can keep here
	// (gameStream.wait).
	ctx    context.Context
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
	// (lag.go), 0 for none; pings go out only while the game is live.
	// lastPing is when the latest went out (see putPingIfDue).
	lagUser  int64
	lastPing time.Time
	// player is the user whose stream it is if they play the game, 0
	// for a spectator: their connection to the table (gameStream.start).
	player int64
	// pace wakes the stream when clockAt or, for a player's stream,
	// pingAt has come (stream_pacer.go): clockAt is the next clock update
	// or heartbeat, pingAt the next ping of a stream gone quiet.
	pace            *paced
	clockAt, pingAt time.Time
	// uncount ends the stream's count in the metrics.
	uncount func()
	// first is the snapshot the stream began with, taken to know the
	// viewer (streamGame), sent as the first panel.
	first *play.Snapshot
	// shown is the snapshot of the latest panel. An event whose snapshot
	// shows this viewer nothing new sends nothing (the mating move and
	// the game's end share one; a spectator does not see a draw offer),
	// and the clock updates run its clocks on.
	shown *play.Snapshot
	// deltas says the page asked for moves as deltas (views.DeltaQuery);
	// mark is then what its latest panel showed (marked: there is one).
	deltas bool
	mark   views.PanelMark
	marked bool
	// sent says the first panel went out; rematch is the rematch the
	// page knows of (0: none). A rematch that appears during the stream
	// sends a player's page there (views.EventRematch).
	sent    bool
	rematch int64
	// pageRematch says the page told what rematch it shows (rematch, from
	// its URL, views.GameView.RematchQuery): one it does not show sends
	// it there even from the stream's first panel.
	pageRematch bool
	// pageKey is the key of the panel the page was drawn with (shown,
	// from its URL, views.GameView.ShownQuery), for a stream that is the
	// page's first: a first panel with the same key is not sent (send).
	// "" once the first panel is past, or when the page asked for none.
	pageKey string
	// own runs the stream's work off its goroutine; burst, rendered and
	// the functions below (prepare) are the work's input and output, kept
	// from one wake to the next so that a wake allocates nothing on the
	// stream's goroutine (own_stack.go).
	own               *ownStack
	burst             []*play.Event
	rendered          bool
	deliverFn, paceFn func() error
}

// gameViewer is who watches a game stream: a player of one side, or not.
type gameViewer struct {
	side    chess.Color
	playing bool
}

// errClientGone ends a stream whose client closed the connection.
var errClientGone = errors.New("handlers: sse: the client went away")

// serve sends the snapshot, then the panel after every change the viewer
// sees and the clocks every few seconds, until ctx ends, the client goes
// away or the feed ends; then it closes the stream and the feed, and a
// player's stream, their connection to the table while it lasts,
// disconnects them. All the work is done on stacks of its own
// (ownStack): the stream's goroutine only waits (wait), a few frames
// from its top, and its stack stays at the smallest (sse_handoff.go).
func (gs *gameStream) serve(ctx context.Context) {
	gs.ctx = ctx
	defer gs.finish()
	err := gs.own.run(gs.begin)
	if err == nil {
		err = gs.wait()
	}
	if err != nil && err != errStreamOver {
		gs.logEnd(err)
	}
}

// errStreamOver ends a stream whose feed ended: no error to log.
var errStreamOver = errors.New("handlers: the stream is over")

// begin counts the stream as open, sends the first panel and starts
// pacing the stream.
func (gs *gameStream) begin() error {
	h := gs.h
	gs.uncount = h.metrics.streamStarted()
	if err := gs.sendFirst(gs.ctx); err != nil {
		return err
	}
	// Clock updates between moves correct the page's own countdown; they
	// also keep proxies from closing a quiet stream, as the heartbeat does
	// once the game is over. Every panel carries the clocks, so a game
	// moving faster than clockSync needs no update between its moves: with
	// thousands of streams they would cost as much as the moves.
	now := time.Now()
	gs.clockAt, gs.lastWrite = now.Add(h.clockSync), now
	// A player's stream pings the page to measure the round trip (lag.go).
	// A ping rides with the next event once lagPing has passed since the
	// last one (putPingIfDue): the first panel, a move, the clocks. Only a
	// stream that sent no ping for twice as long sends one of its own, at
	// pingAt, which each ping puts off: with thousands of streams, pings
	// of their own every few seconds were more writes than the moves, and
	// a time not put off woke the streams about as often as the moves did.
	gs.pingAt = now.Add(2 * h.lagPing)
	gs.pace = h.pacer.add(gs.due())
	return nil
}

// due is when the stream is next to wake for its clocks or its ping.
func (gs *gameStream) due() time.Time {
	if gs.lagUser != 0 && gs.pingAt.Before(gs.clockAt) {
		return gs.pingAt
	}
	return gs.clockAt
}

// finish stops pacing the stream and closes the stream and the feed; a
// player is disconnected from the table.
func (gs *gameStream) finish() {
	if gs.pace != nil {
		gs.h.pacer.remove(gs.pace)
	}
	if gs.uncount != nil {
		gs.uncount()
	}
	gs.stream.close()
	gs.views.release()
	if gs.lagUser != 0 {
		gs.h.lag.close(gs.id, gs.lagUser)
	}
	if gs.player != 0 {
		gs.feed.Disconnected(gs.player)
	}
	gs.feed.Close()
}

// wait is the stream's loop: it waits for the game's events and for the
// pacer's wakes (the clock updates and the pings) until the stream's
// context ends, a write fails or the feed ends (errStreamOver). It only
// waits: each case's work is in a function of its own (and on a stack of
// its own, ownStack), so that the frames of an idle stream stay few and
// small (sse_handoff.go).
func (gs *gameStream) wait() error {
	for {
		var err error
		select {
		case <-gs.ctx.Done():
			return nil
		case ev, ok := <-gs.feed.Events():
			err = gs.onEvent(ev, ok)
		case <-gs.pace.wake:
			err = gs.onPace()
		}
		if err != nil {
			return err
		}
	}
}

// onEvent sends what ev and the events waiting behind it change (ok is
// false when the feed dropped the stream for falling behind: the page
// reconnects for a fresh snapshot); errStreamOver says the stream is
// over.
func (gs *gameStream) onEvent(ev *play.Event, ok bool) error {
	if !ok {
		return errStreamOver
	}
	// One render covers a burst of events; voice signals go one by one.
	var open bool
	gs.burst, open = appendWaiting(append(gs.burst[:0], ev), gs.feed.Events())
	err := gs.own.run(gs.deliverFn)
	clear(gs.burst) // the events' snapshots are not the stream's to keep
	if err == nil && !open {
		return errStreamOver
	}
	if gs.rendered {
		// The panel carried the clocks: the next update is due only
		// after clockSync without one.
		gs.clockAt = gs.lastWrite.Add(gs.h.clockSync)
	}
	// A ping that rode with the panel put the next one off too.
	gs.h.pacer.set(gs.pace, gs.due())
	return err
}

// onPace sends what the pacer woke the stream for (paced), and says when
// it is due next: a wake clears the time.
func (gs *gameStream) onPace() error {
	err := gs.own.run(gs.paceFn)
	gs.h.pacer.set(gs.pace, gs.due())
	return err
}

// paced sends a ping if the stream has been quiet (pingIfQuiet) and the
// clocks or a heartbeat (tick), whichever is due at now.
func (gs *gameStream) paced(ctx context.Context, now time.Time) error {
	if gs.lagUser != 0 && !now.Before(gs.pingAt) {
		if err := gs.pingIfQuiet(now); err != nil {
			return err
		}
	}
	if now.Before(gs.clockAt) {
		return nil
	}
	gs.clockAt = now.Add(gs.h.clockSync)
	return gs.tick(ctx, now)
}

// prepare makes what the stream's wakes reuse (own, and the work of each
// kind of wake), before the stream serves.
func (gs *gameStream) prepare() {
	gs.own = newOwnStack()
	gs.deliverFn = func() (err error) {
		gs.rendered, err = gs.deliver(gs.ctx, gs.burst)
		return err
	}
	gs.paceFn = func() error { return gs.paced(gs.ctx, time.Now()) }
}

// logEnd logs why the stream ended. It is kept out of line: inlined, its
// arguments would take room in the waiting frame of serve.
//
//go:noinline
func (gs *gameStream) logEnd(err error) {
	gs.h.log.DebugContext(gs.ctx, "game stream", "game", gs.id, "err", err)
}

// sendFirst sends the game's panel as it stands: the snapshot the stream
// began with (first), or a fresh one from the feed.
func (gs *gameStream) sendFirst(ctx context.Context) error {
	snap := gs.first
	gs.first = nil
	if snap == nil {
		var err error
		if snap, err = gs.feed.Snapshot(ctx); err != nil {
			return err
		}
	}
	return gs.send(ctx, snap)
}

// send sends the panel of snap, with the ply as the event id, its clocks
// run on to now: a move's delta (views.MoveDelta) when the page asked
// for deltas and the change is one move, nothing for a stream's first
// panel that the page was drawn with (pageKey), the whole panel
// otherwise.
func (gs *gameStream) send(ctx context.Context, snap *play.Snapshot) error {
	gs.shown = snap
	at := *snap
	if at.Status == game.Active {
		at.Clocks = at.Clocks.RunTo(time.Now())
	}
	view := gs.views.panel(at)
	// The page shows this panel already (it was drawn with it, and the
	// stream is its first): nothing to draw again.
	shown := gs.pageKey != "" && view.PageKey(ctx) == gs.pageKey
	gs.pageKey = ""
	var event string
	var body templ.Component
	if !shown {
		var delta *views.PanelDelta
		event, body, delta = gs.pick(&view)
		if delta != nil {
			defer putPanelDelta(delta)
		}
	}
	if gs.deltas {
		gs.mark, gs.marked = view.Mark(), true
	}
	// Rendered first, so that a ping riding with it is timed from the
	// write, not from before the render.
	var data []byte
	if body != nil {
		buf, err := renderPooled(ctx, body)
		if err != nil {
			return err
		}
		defer putRenderBuffer(buf)
		data = buf.Bytes()
	}
	gs.stream.startWrite()
	gs.putPingIfDue(at.Status, time.Now())
	if body != nil {
		gs.stream.put(strconv.Itoa(at.Ply), event, data)
	}
	if err := gs.sendRematch(ctx, at); err != nil {
		return err
	}
	return gs.stream.flush()
}

// pick chooses the event that shows view to the stream: a move's delta
// when the page asked for deltas and view is one move on from the panel
// last sent, the whole panel otherwise.
//
// A component holds what it renders: a GameView is some 3 KB, which was
// the largest part of the garbage of a move. So only the event sent is
// made, and a delta is rendered from delta, a pooled one, which
// putPanelDelta gives back once it is rendered.
func (gs *gameStream) pick(view *views.GameView) (event string, body templ.Component, delta *views.PanelDelta) {
	if gs.marked {
		if d, ok := views.NewPanelDelta(gs.mark, *view); ok {
			delta = panelDeltas.Get().(*views.PanelDelta)
			*delta = d
			return views.EventMove, views.MoveDelta(delta), delta
		}
	}
	// A copy: the component keeping view itself would put send's view on
	// the heap for every event, deltas included.
	panel := *view
	return views.EventGame, views.GamePanel(&panel), nil
}

// panelDeltas hold the deltas being rendered (send).
var panelDeltas = sync.Pool{New: func() any { return new(views.PanelDelta) }}

// putPanelDelta gives a delta of pick's back to panelDeltas.
func putPanelDelta(d *views.PanelDelta) {
	*d = views.PanelDelta{}
	panelDeltas.Put(d)
}

// deliver writes a burst of the game's events to the stream: each voice
// signal of the opponent as it is, and one panel for everything else the
// viewer sees, from the newest snapshot of the burst (with the chat read
// again after a message). Spectators get nothing of the chat and the
// voice chat, not even their events; a player does not get their own
// signals back. rendered reports whether the panel, and with it the
// clocks, went out. It observes the moves' latency.
func (gs *gameStream) deliver(ctx context.Context, burst []*play.Event) (rendered bool, err error) {
	var next *play.Snapshot
	chatted, unknown := false, false
	for _, ev := range burst {
		switch p := ev.Payload.(type) {
		case play.VoiceSignalled:
			if gs.viewer.playing && p.From != gs.viewer.side {
				if err := sendVoice(gs.stream, p.Signal); err != nil {
					return false, err
				}
			}
		case play.ChatPosted:
			// Its snapshot was taken before the message was stored and
			// may be older than the panel shown: render that one again.
			if gs.viewer.playing {
				gs.views.chatChanged()
				chatted = true
			}
		default:
			if ev.After == nil {
				unknown = true // an event without its snapshot: ask the feed
			} else {
				next = ev.After
			}
		}
	}
	switch {
	case unknown:
		err, rendered = gs.sendFirst(ctx), true
	case next != nil && gs.shows(next):
		err, rendered = gs.send(ctx, next), true
	case chatted:
		err, rendered = gs.send(ctx, gs.shown), true
	}
	if err != nil {
		return false, err
	}
	now := time.Now()
	gs.h.metrics.movesWritten(burst, now)
	if rendered {
		gs.lastWrite = now
	}
	return rendered, nil
}

// shows reports whether next, the snapshot of a new event, shows this
// viewer something the latest panel did not. An older snapshot (taken
// before the stream's first one, or already shown with an earlier event
// of the same change) shows nothing; to a spectator, only the moves, the
// players, the clocks' start, the first-move countdown, the result and
// its voiding show.
func (gs *gameStream) shows(next *play.Snapshot) bool {
	cur := gs.shown
	if next.Ply < cur.Ply || next.Ply == cur.Ply && !next.Clocks.At.After(cur.Clocks.At) {
		return false
	}
	if gs.viewer.playing {
		return true
	}
	return next.Ply != cur.Ply || next.Status != cur.Status || next.Outcome != cur.Outcome ||
		next.White != cur.White || next.Black != cur.Black ||
		next.Clocks.Running != cur.Clocks.Running || next.Clocks.Side != cur.Clocks.Side ||
		!next.FirstMoveBy.Equal(cur.FirstMoveBy) || !next.VoidedAt.Equal(cur.VoidedAt)
}

// sendRematch sends a player's page to the rematch of snap when it
// appears during the stream (both players agreed): an EventRematch with
// the link, which the page follows. A page that knew of it when the
// stream began (a reload) is left where it is, with the link in its
// panel, unless the page says it was drawn without it (pageRematch).
func (gs *gameStream) sendRematch(ctx context.Context, snap play.Snapshot) error {
	first := !gs.sent
	gs.sent = true
	if snap.RematchID == gs.rematch {
		return nil
	}
	gs.rematch = snap.RematchID
	if first && !gs.pageRematch || !gs.viewer.playing {
		return nil
	}
	path := views.Action(ctx, "/games/"+strconv.FormatInt(snap.RematchID, 10))
	return gs.stream.renderEvent(ctx, "", views.EventRematch, views.RematchGo(path))
}

// putPingIfDue puts a ping of the lag measurement, which a player's page
// echoes (lag.go), before the event about to be written, if the game is
// live (status) and lagPing has passed since the last one. It goes first,
// so that the page echoes it before it handles the event.
func (gs *gameStream) putPingIfDue(status game.Status, now time.Time) {
	if gs.lagUser == 0 || status != game.Active || now.Sub(gs.lastPing) < gs.h.lagPing {
		return
	}
	nonce, ok := gs.h.lag.ping(gs.id, gs.lagUser, now)
	if !ok {
		return
	}
	gs.lastPing = now
	gs.pingAt = now.Add(2 * gs.h.lagPing)
	gs.stream.put("", views.EventLagPing, []byte(nonce))
}

// pingIfQuiet sends a ping on its own: its time comes once no ping went
// out for twice lagPing, since each puts it off (putPingIfDue). Sent or
// not (the game is not live), the next check is as far again.
func (gs *gameStream) pingIfQuiet(now time.Time) error {
	gs.pingAt = now.Add(2 * gs.h.lagPing)
	if gs.shown == nil {
		return nil
	}
	last := gs.lastPing
	gs.stream.startWrite()
	gs.putPingIfDue(gs.shown.Status, now)
	if gs.lastPing == last {
		return nil // nothing put: the game is not live
	}
	gs.lastWrite = now
	return gs.stream.flush()
}

// tick sends a live timed game's clocks, or a heartbeat when nothing was
// sent for a while. A stream taken out of net/http first checks that its
// client is still there.
func (gs *gameStream) tick(ctx context.Context, now time.Time) error {
	if gs.conn != nil && peerGone(gs.conn) {
		return errClientGone
	}
	sent, err := gs.sendClocks(ctx, now)
	if err == nil && !sent && now.Sub(gs.lastWrite) >= gs.h.heartbeat {
		err = gs.stream.comment("ping")
		sent = true
	}
	if sent {
		gs.lastWrite = now
	}
	return err
}

// sendClocks sends both clocks of a live timed game as they stand at
// now, run on from the latest panel's, in one write; it reports whether
// it sent anything.
func (gs *gameStream) sendClocks(ctx context.Context, now time.Time) (bool, error) {
	snap := *gs.shown
	if snap.Status != game.Active || !snap.Clocks.Timed {
		return false, nil
	}
	snap.Clocks = snap.Clocks.RunTo(now)
	top, bottom := gs.views.clocks(snap)
	gs.stream.startWrite()
	gs.putPingIfDue(snap.Status, now)
	for _, p := range []views.PlayerView{top, bottom} {
		if err := gs.stream.renderEvent(ctx, "", views.ClockEvent(p.Side), views.Clock(p)); err != nil {
			return false, err
		}
	}
	return true, gs.stream.flush()
}

// appendWaiting appends to burst the events already waiting on c, without
// blocking; open is false if c was closed.
func appendWaiting[E any](burst []E, c <-chan E) (_ []E, open bool) {
	for {
		select {
		case e, ok := <-c:
			if !ok {
				return burst, false
			}
			burst = append(burst, e)
		default:
			return burst, true
		}
	}
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
