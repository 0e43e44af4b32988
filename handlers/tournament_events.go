package handlers

import (
	"bytes"
	"net/http"
	"time"

	"satranc/engine/play"
	"satranc/views"
)

// handleTournamentEvents streams the running period's standings panel:
// at once, again whenever a game ends (the standings are computed from
// the games, so a game that scores shows at once), and when the period
// ends, the next period's. A comment line keeps a quiet stream open.
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
	stream, err := newSSEWriter(w)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer h.metrics.streamStarted()()
	var rollover *time.Timer
	send := func() error {
		p := h.tourneys.Current(k)
		v, err := h.standingsView(r, p, true)
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
	if err := send(); err != nil {
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
			err = send()
		case <-rollover.C:
			err = send()
		case <-heartbeat.C:
			err = stream.comment("ping")
		}
		if err != nil {
			h.log.DebugContext(ctx, "standings stream", "err", err)
			return
		}
	}
}
