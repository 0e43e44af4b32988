package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/a-h/templ"

	"satranc/engine/fairplay"
	"satranc/views"
)

// Reports is what the "report this player" button needs; the store
// implements it.
type Reports interface {
	// ReportPlayer records reporter's report of their opponent in game
	// id; errors: play.ErrNotPlayer, fairplay.ErrInvalidReason,
	// fairplay.ErrAlreadyReported.
	ReportPlayer(ctx context.Context, id, reporter int64, reason string) error
	HasReported(ctx context.Context, id, reporter int64) (bool, error)
}

// handleGameReport records a player's report of the opponent (field
// reason) for the administrators, and goes back to the game, which then
// says the report was sent. Reporting twice is answered the same way.
func (h *Handler) handleGameReport(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	user, _ := userFrom(r.Context())
	err = h.reports.ReportPlayer(r.Context(), id, user.ID, r.PostFormValue("reason"))
	if errors.Is(err, fairplay.ErrAlreadyReported) {
		err = nil
	}
	h.answerGameForm(w, r, id, err, views.ReportError, func(v views.GameView, msg *views.Message) templ.Component {
		v.ReportError = msg
		return views.GamePage(v, nil)
	})
}

// reportedIn reports whether user reported their opponent in game id. A
// failure is logged and taken as "not yet": the button then shows, and
// the store refuses a second report anyway.
func (h *Handler) reportedIn(r *http.Request, id, user int64) bool {
	if h.reports == nil {
		return false
	}
	done, err := h.reports.HasReported(r.Context(), id, user)
	if err != nil {
		h.log.WarnContext(r.Context(), "has reported", "game", id, "err", err)
	}
	return done
}
