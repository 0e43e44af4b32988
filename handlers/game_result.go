package handlers

import (
	"context"
	"net/http"

	"satranc/engine/play"
	"satranc/views"
)

// Settlements reads what the settlement of a game's end gave a player
// (store.Store.GameSettlement), for the result panel of the game page.
type Settlements interface {
	GameSettlement(ctx context.Context, gameID, user int64) (play.Settlement, error)
}

// settlementFor returns what game snap's settlement gave user, a player of
// the game, once it is over; nil when there is nothing to show yet or it
// cannot be read (the panel then asks again: handleGameResult).
func (h *Handler) settlementFor(ctx context.Context, snap play.Snapshot, user int64) *play.Settlement {
	if h.settlements == nil || !snap.Status.Over() {
		return nil
	}
	if _, ok := snap.SideOf(user); !ok {
		return nil
	}
	st, err := h.settlements.GameSettlement(ctx, snap.ID, user)
	if err != nil {
		h.log.WarnContext(ctx, "game settlement", "game", snap.ID, "user", user, "err", err)
		return nil
	}
	return &st
}

// handleGameResult answers the result panel's figures of the game for the
// user (views.ResultFigures): the panel asks for them when they were not
// there when it was drawn.
func (h *Handler) handleGameResult(w http.ResponseWriter, r *http.Request) {
	if !isHTMX(r) {
		// The figures are a part of the game page: a link opened goes there.
		id, err := gameID(r)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		http.Redirect(w, r, gamePath(r, id), http.StatusSeeOther)
		return
	}
	snap, ok := h.routeGame(w, r)
	if !ok {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	v := h.gameView(r, snap)
	h.render(w, r, http.StatusOK, views.ResultFigures(&v))
}
