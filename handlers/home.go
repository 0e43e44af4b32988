package handlers

import (
	"net/http"

	"satranc/engine/chess"
	"satranc/views"
)

// handleHome shows the front page with the board in its starting position.
func (h *Handler) handleHome(w http.ResponseWriter, r *http.Request) {
	p, err := chess.ParseFEN(chess.StartFEN)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.HomePage(views.NewBoardView(p, chess.White)))
}
