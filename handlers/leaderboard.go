package handlers

import (
	"context"
	"net/http"

	"satranc/engine/lobby"
	"satranc/views"
)

// Leaderboard ranks the players by rating; the store implements it.
type Leaderboard interface {
	Leaderboard(ctx context.Context, limit int) ([]lobby.Standing, error)
	StandingOf(ctx context.Context, user int64) (lobby.Standing, error)
}

// handleLeaderboard shows the best players by Elo, and a logged-in
// viewer's own place even when they are not among them.
func (h *Handler) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	top, err := h.board.Leaderboard(r.Context(), views.LeaderboardSize)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var me *lobby.Standing
	if u, ok := userFrom(r.Context()); ok {
		st, err := h.board.StandingOf(r.Context(), u.ID)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		me = &st
	}
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.LeaderboardPage(views.NewLeaderboardView(top, me)))
}
