package handlers

import (
	"bytes"
	"context"
	"net/http"
	"time"

	"satranc/engine/live"
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
	u, _ := userFrom(r.Context())
	ls := &lobbyWaitStream{h: h, user: u.ID}
	ls.own = newOwnStack()
	ls.sendFn = ls.send
	h.serveEventStream(w, r, "lobby stream", ls)
}

// lobbyWaitStream is one waiting player's stream of the waiting panel.
// As the other streams, its work runs on stacks of its own (ownStack):
// its goroutine only waits.
type lobbyWaitStream struct {
	h    *Handler
	user int64

	stream  *sseWriter
	sub     *live.Subscription[int64, lobby.Event]
	tick    *time.Ticker
	uncount func()
	// ctx is the stream's context while it serves; waiting says the last
	// panel sent was of a wait still going on.
	ctx     context.Context
	waiting bool
	own     *ownStack
	sendFn  func() error
}

func (ls *lobbyWaitStream) attach(s *sseWriter) { ls.stream = s }

// serve sends the panel until the wait ends, then keeps the stream open
// until ctx ends, and closes it.
func (ls *lobbyWaitStream) serve(ctx context.Context) {
	ls.ctx = ctx
	defer ls.finish()
	ls.uncount = ls.h.metrics.streamStarted()
	// Subscribe before the first status, so that no pairing falls between.
	ls.sub = ls.h.lobby.Subscribe(ls.user)
	ls.tick = time.NewTicker(lobbyTick)
	if err := ls.wait(ctx); err != nil {
		ls.h.log.DebugContext(ctx, "lobby stream", "user", ls.user, "err", err)
	}
}

// wait is the stream's loop, which sends the panel and waits
// (gameStream.wait). Once the wait is over it keeps the stream open: the
// browser would reconnect at once; the page leaves it.
func (ls *lobbyWaitStream) wait(ctx context.Context) error {
	for {
		if err := ls.own.run(ls.sendFn); err != nil {
			return err
		}
		if !ls.waiting {
			<-ctx.Done()
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-ls.sub.C():
			if !ok {
				return nil // dropped for falling behind: the page reconnects
			}
			drain(ls.sub.C())
		case <-ls.tick.C:
		}
	}
}

// send reads the wait's status and sends its panel.
func (ls *lobbyWaitStream) send() error {
	st, err := ls.h.lobby.Status(ls.ctx, ls.user)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := views.WaitPanel(waitView(st)).Render(ls.ctx, &buf); err != nil {
		return err
	}
	ls.waiting = st.State == lobby.Waiting || st.State == lobby.Starting
	return ls.stream.event("", views.EventWait, buf.Bytes())
}

// finish stops the ticker and the subscription, uncounts the stream and
// closes it.
func (ls *lobbyWaitStream) finish() {
	if ls.tick != nil {
		ls.tick.Stop()
	}
	if ls.sub != nil {
		ls.sub.Close()
	}
	if ls.uncount != nil {
		ls.uncount()
	}
	ls.stream.close()
}
