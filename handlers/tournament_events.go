package handlers

import (
	"bytes"
	"net/http"
	"time"

	"satranc/engine/play"
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
	ctx := r.Context()
	// Subscribe before the first panel, so that no game's end falls between.
	sub := h.games.Subscribe(play.Endings)
	defer sub.Close()
	stream, err := newSSEWriter(ctx, w)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer stream.close()
	defer h.metrics.streamStarted()()
	var rollover *time.Timer
	var lastSend, heard time.Time // heard: when the latest game's end was
	var due <-chan time.Time      // a panel held back by standingsEvery
	// send renders the standings as read at after or later (zero: now);
	// the streams that heard of a game's end together share one read.
	send := func(after time.Time) error {
		lastSend, due = time.Now(), nil
		p := h.tourneys.Current(k)
		v, err := h.standingsView(r, p, true, after)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := views.StandingsPanel(v).Render(ctx, &buf); err != nil {
			return err
		}
		if rollover != nil {
			rollover.Stop()
		}
		rollover = time.NewTimer(time.Until(p.End) + time.Second)
		return stream.event("", views.EventStandings, buf.Bytes())
	}
	defer func() {
		if rollover != nil {
			rollover.Stop()
		}
	}()
	if err := send(time.Time{}); err != nil {
		h.log.DebugContext(ctx, "standings stream", "err", err)
		return
	}
	heartbeat := time.NewTicker(h.heartbeat)
	defer heartbeat.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-sub.C():
			if !ok {
				return // dropped for falling behind: the page reconnects
			}
			drain(sub.C()) // one render covers a burst of endings
			heard = time.Now()
			if due != nil {
				continue // a panel is due already
			}
			if wait := standingsEvery - time.Since(lastSend); wait > 0 {
				due = time.After(wait)
				continue
			}
			err = send(heard)
		case <-due:
			err = send(heard)
		case <-rollover.C:
			err = send(time.Time{})
		case <-heartbeat.C:
			err = stream.comment("ping")
		}
		if err != nil {
			h.log.DebugContext(ctx, "standings stream", "err", err)
			return
		}
	}
}
