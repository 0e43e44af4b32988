package handlers

import (
	"net/http"
	"strconv"

	"satranc/views"
)

// handleGamePosition draws the board of a game after ?ply= half-moves, as
// the viewer sees it (their own side at the bottom): the game page shows
// it while its reader steps back through the move list
// (static/js/movelist.js). Past positions never change, but the game's
// access rules do, so the answer is not cached.
func (h *Handler) handleGamePosition(w http.ResponseWriter, r *http.Request) {
	snap, ok := h.routeGame(w, r)
	if !ok {
		return
	}
	ply, err := strconv.Atoi(r.URL.Query().Get("ply"))
	if err != nil || ply < 0 || ply > len(snap.Moves) {
		h.fail(w, r, errBadRequest)
		return
	}
	var viewer int64
	if u, ok := userFrom(r.Context()); ok {
		viewer = u.ID
	}
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.Board(views.NewPositionBoard(snap, ply, viewer)))
}
