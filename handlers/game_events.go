package handlers

import (
	"bytes"
	"net/http"
	"strconv"
	"time"

	"satranc/views"
)

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
	ctx := r.Context()
	// Subscribe before the snapshot, so that no change falls between them.
	sub := h.games.Subscribe(id)
	defer sub.Close()
	snap, err := h.games.Game(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if user, ok := userFrom(ctx); ok {
		if _, playing := snap.SideOf(user.ID); playing {
			if err := h.games.Connected(ctx, id, user.ID); err != nil {
				h.log.WarnContext(ctx, "connect to game", "game", id, "err", err)
			}
			defer h.games.Disconnected(id, user.ID)
		}
	}

	stream, err := newSSEWriter(w)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	send := func() error {
		snap, err := h.games.Game(ctx, id)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := views.GamePanel(h.gameView(r, snap)).Render(ctx, &buf); err != nil {
			return err
		}
		return stream.event(strconv.Itoa(snap.Ply), views.EventGame, buf.Bytes())
	}
	if err := send(); err != nil {
		h.log.DebugContext(ctx, "game stream", "game", id, "err", err)
		return
	}
	heartbeat := time.NewTicker(sseHeartbeat)
	defer heartbeat.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-sub.C():
			if !ok {
				return // dropped for falling behind: the page reconnects for a fresh snapshot
			}
			drain(sub.C()) // one render covers a burst of events
			err = send()
		case <-heartbeat.C:
			err = stream.comment("ping")
		}
		if err != nil {
			h.log.DebugContext(ctx, "game stream", "game", id, "err", err)
			return
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
