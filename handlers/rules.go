package handlers

import (
	"net/http"

	"satranc/views"
)

// handleRules shows the rules page with its try-it boards and the
// server's disconnection grace, first-move time and lag compensation. It is open to
// guests and members alike.
func (h *Handler) handleRules(w http.ResponseWriter, r *http.Request) {
	tries, err := views.NewTryIts()
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.RulesPage(views.RulesView{TryIts: tries, DisconnectGrace: h.grace, FirstMoveTime: h.firstMove, LagCompensation: h.lag != nil}))
}

// handleGuidelines shows the Community Guidelines.
func (h *Handler) handleGuidelines(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, views.GuidelinesPage())
}

// handleTournamentRules shows the Tournament Rules.
func (h *Handler) handleTournamentRules(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, views.TournamentRulesPage())
}

// handleTerms shows the Terms of Use.
func (h *Handler) handleTerms(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, views.TermsPage())
}
