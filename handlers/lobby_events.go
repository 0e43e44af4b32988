package handlers

import (
	"bytes"
	"net/http"
	"time"

	"satranc/engine/lobby"
	"satranc/views"
)

// lobbyTick is how often a waiting page's stream sends the time waited.
const lobbyTick = time.Second

// handleLobbyWaitEvents streams the waiting panel to a waiting player:
// the panel at once and every second with the time waited, and once more
// when the game has started, which then takes the page there. The stream
// ends when the wait does.
func (h *Handler) handleLobbyWaitEvents(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	u, _ := userFrom(ctx)
	// Subscribe before the first status, so that no pairing falls between.
	sub := h.lobby.Subscribe(u.ID)
	defer sub.Close()
	stream, err := h.newStream(w, r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer stream.close()
	send := func() (waiting bool, err error) {
		st, err := h.lobby.Status(ctx, u.ID)
		if err != nil {
			return false, err
		}
		var buf bytes.Buffer
		if err := views.WaitPanel(waitView(st)).Render(ctx, &buf); err != nil {
			return false, err
		}
		waiting = st.State == lobby.Waiting || st.State == lobby.Starting
		return waiting, stream.event("", views.EventWait, buf.Bytes())
	}
	tick := time.NewTicker(lobbyTick)
	defer tick.Stop()
	for {
		waiting, err := send()
		if err != nil {
			h.log.DebugContext(ctx, "lobby stream", "user", u.ID, "err", err)
			return
		}
		if !waiting {
			// Keep the stream open, or the browser would reconnect at
			// once; the page leaves it.
			<-ctx.Done()
			return
		}
		select {
		case <-ctx.Done():
			return
		case _, ok := <-sub.C():
			if !ok {
				return // dropped for falling behind: the page reconnects
			}
			drain(sub.C())
		case <-tick.C:
		}
	}
}
