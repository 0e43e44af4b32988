package handlers

import (
	"bytes"
	"context"
	"net/http"
	"time"

	"satranc/engine/live"
	"satranc/engine/play"
	"satranc/engine/tourney"
	"satranc/views"
)

// standingsEvery is the least time between two standings panels of one
// stream: when many games end at once, each page renders once a second,
// not once per game.
const standingsEvery = time.Second

// handleTournamentEvents streams the running period's standings panel:
// at once, again whenever a game ends (the standings are computed from
// the games, so a game that scores shows at once; at most one panel per
// standingsEvery), and when the period ends, the next period's. A comment
// line keeps a quiet stream open.
func (h *Handler) handleTournamentEvents(w http.ResponseWriter, r *http.Request) {
	k, err := tournamentKind(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	ss := &standingsStream{h: h, kind: k}
	ss.own = newOwnStack()
	ss.sendFn = func() error { return ss.send(ss.after) }
	ss.pingFn = func() error { return ss.stream.comment("ping") }
	h.serveEventStream(w, r, "standings stream", ss)
}

// standingsStream is one page's stream of a tournament's standings. As
// the other streams, its work runs on stacks of its own (ownStack): its
// goroutine only waits.
type standingsStream struct {
	h    *Handler
	kind tourney.Kind

	stream *sseWriter
	sub    *live.Subscription[int64, *play.Event]
	// rollover fires a second after the period shown ends; due, while
	// pending, when a panel held back by standingsEvery is due.
	rollover, due *time.Timer
	pending       bool
	heartbeat     *time.Ticker
	uncount       func()
	// lastSend is when the last panel was sent, heard when the latest
	// game's end was heard of.
	lastSend, heard time.Time

	// ctx is the stream's context while it serves; after is the time the
	// next panel's standings are read as of (send).
	ctx            context.Context
	after          time.Time
	own            *ownStack
	sendFn, pingFn func() error
}

func (ss *standingsStream) attach(s *sseWriter) { ss.stream = s }

// serve sends the standings, then again as games end and periods roll
// over, until ctx ends or the client goes; then it closes the stream.
func (ss *standingsStream) serve(ctx context.Context) {
	ss.ctx = ctx
	defer ss.finish()
	h := ss.h
	ss.uncount = h.metrics.streamStarted()
	// Subscribe before the first panel, so that no game's end falls between.
	ss.sub = h.games.Subscribe(play.Endings)
	ss.due = time.NewTimer(time.Hour)
	ss.due.Stop()
	err := ss.sendAsOf(time.Time{})
	if err == nil {
		ss.heartbeat = time.NewTicker(h.heartbeat)
		err = ss.wait(ctx)
	}
	if err != nil {
		h.log.DebugContext(ctx, "standings stream", "err", err)
	}
}

// wait is the stream's loop, which only waits (gameStream.wait).
func (ss *standingsStream) wait(ctx context.Context) error {
	for {
		var err error
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-ss.sub.C():
			if !ok {
				return nil // dropped for falling behind: the page reconnects
			}
			drain(ss.sub.C()) // one render covers a burst of endings
			ss.heard = time.Now()
			if ss.pending {
				continue // a panel is due already
			}
			if wait := standingsEvery - time.Since(ss.lastSend); wait > 0 {
				ss.pending = true
				ss.due.Reset(wait)
				continue
			}
			err = ss.sendAsOf(ss.heard)
		case <-ss.due.C:
			err = ss.sendAsOf(ss.heard)
		case <-ss.rollover.C:
			err = ss.sendAsOf(time.Time{})
		case <-ss.heartbeat.C:
			err = ss.own.run(ss.pingFn)
		}
		if err != nil {
			return err
		}
	}
}

// sendAsOf sends the standings as read at after or later (zero: now);
// the streams that heard of a game's end together share one read.
func (ss *standingsStream) sendAsOf(after time.Time) error {
	ss.lastSend, ss.pending = time.Now(), false
	ss.due.Stop()
	ss.after = after
	return ss.own.run(ss.sendFn)
}

// send renders the running period's standings as read at after or later
// and sends them, and sets the rollover for the period's end.
func (ss *standingsStream) send(after time.Time) error {
	h := ss.h
	p := h.tourneys.Current(ss.kind)
	v, err := h.standingsView(ss.ctx, p, true, after)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := views.StandingsPanel(v).Render(ss.ctx, &buf); err != nil {
		return err
	}
	if ss.rollover == nil {
		ss.rollover = time.NewTimer(time.Until(p.End) + time.Second)
	} else {
		ss.rollover.Reset(time.Until(p.End) + time.Second)
	}
	return ss.stream.event("", views.EventStandings, buf.Bytes())
}

// finish stops the timers and the subscription, and closes the stream.
func (ss *standingsStream) finish() {
	for _, t := range []*time.Timer{ss.rollover, ss.due} {
		if t != nil {
			t.Stop()
		}
	}
	if ss.heartbeat != nil {
		ss.heartbeat.Stop()
	}
	if ss.sub != nil {
		ss.sub.Close()
	}
	if ss.uncount != nil {
		ss.uncount()
	}
	ss.stream.close()
}
