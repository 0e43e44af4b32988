package handlers

import (
	"context"
	"net/http"
	"strings"
	"time"

	"satranc/views"
)

// Bonus hands out the daily bonus (SPEC section 5: chips come only from the
// rules, grants, bonuses and prizes).
type Bonus interface {
	ClaimDailyBonus(ctx context.Context, user int64, now time.Time) (bool, error)
}

// handleBonusClaim gives the member today's bonus, once a day, and goes
// back to the lobby saying whether it was given.
func (h *Handler) handleBonusClaim(w http.ResponseWriter, r *http.Request) {
	u, _ := userFrom(r.Context())
	claimed, err := h.bonus.ClaimDailyBonus(r.Context(), u.ID, time.Now())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	outcome := "already"
	if claimed {
		outcome = "claimed"
	}
	back := views.Action(r.Context(), "/lobby") // keeps ?lang
	sep := "?"
	if strings.Contains(back, "?") {
		sep = "&"
	}
	http.Redirect(w, r, back+sep+"bonus="+outcome, http.StatusSeeOther)
}
