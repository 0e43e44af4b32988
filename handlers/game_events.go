package handlers

import (
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
func (h *Handler) streamGame(w http.ResponseWriter, r *http.Request, id int64, feed GameFeed) {
	defer feed.Close()
	ctx := r.Context()
	snap, err := feed.Snapshot(ctx)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var viewer gameViewer // spectators get nothing of the chat and voice chat
	if user, ok := userFrom(ctx); ok {
		if viewer.side, viewer.playing = snap.SideOf(user.ID); viewer.playing {
			if err := feed.Connected(ctx, user.ID); err != nil {
				h.log.WarnContext(ctx, "connect to game", "game", id, "err", err)
			}
			defer feed.Disconnected(user.ID)
		}
	}

	stream, err := h.newStream(w, r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer stream.close()
	defer h.metrics.streamStarted()()
	sv := newStreamViews(h, r, feed)
	send := func() error {
		return onOwnStack(func() error {
			snap, err := feed.Snapshot(ctx)
			if err != nil {
				return err
			}
			stream.startWrite()
			if err := stream.renderEvent(ctx, strconv.Itoa(snap.Ply), views.EventGame, views.GamePanel(sv.panel(snap))); err != nil {
				return err
			}
			return stream.flush()
		})
	}
	if err := send(); err != nil {
		h.log.DebugContext(ctx, "game stream", "game", id, "err", err)
		return
	}
	// Clock updates between moves correct the page's own countdown; they
	// also keep proxies from closing a quiet stream, as the heartbeat does
	// once the game is over.
	sync := time.NewTicker(h.clockSync)
	defer sync.Stop()
	lastWrite := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-feed.Events():
			if !ok {
				return // dropped for falling behind: the page reconnects for a fresh snapshot
			}
			// One render covers a burst of events; voice signals go one by one.
			burst, open := appendWaiting([]play.Event{ev}, feed.Events())
			if err = forward(stream, burst, viewer, sv, send); err == nil {
				h.metrics.movesWritten(burst, time.Now())
				if !open {
					return
				}
			}
		case now := <-sync.C:
			var sent bool
			err = onOwnStack(func() (err error) {
				sent, err = h.sendClocks(r, stream, feed, sv)
				return err
			})
			if err == nil && !sent && now.Sub(lastWrite) >= h.heartbeat {
				err = stream.comment("ping")
				sent = true
			}
			if sent {
				lastWrite = now
			}
		}
		if err != nil {
			h.log.DebugContext(ctx, "game stream", "game", id, "err", err)
			return
		}
	}
}

// sendClocks sends both clocks of a live timed game as they stand, in
// one write; it reports whether it sent anything.
func (h *Handler) sendClocks(r *http.Request, stream *sseWriter, feed GameFeed, sv *streamViews) (bool, error) {
	snap, err := feed.Snapshot(r.Context())
	if err != nil || snap.Status != game.Active || !snap.Clocks.Timed {
		return false, err
	}
	top, bottom := sv.clocks(snap)
	stream.startWrite()
	for _, p := range []views.PlayerView{top, bottom} {
		if err := stream.renderEvent(r.Context(), "", views.ClockEvent(p.Side), views.Clock(p)); err != nil {
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
