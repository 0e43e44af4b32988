package handlers

import (
	"net/http"

	"satranc/views"
)

// handleBotPlayer shows the profile of name, one of the names computer
// players go by at public tables: the page a member's is, made of the
// games played under the name (views.NewBotPlayerPage says how, and why
// its rating is what it is). A name that has played no game yet joined
// when the first computer player sat at a public table; with none ever,
// nobody can have seen the name, and it is not found.
func (h *Handler) handleBotPlayer(w http.ResponseWriter, r *http.Request, name string) {
	ctx := r.Context()
	games, err := h.profiles.PublicBotGames(ctx, name)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	in := views.BotPageInput{Name: name, Games: games, Names: map[int64]string{}, Shown: pastGamesShown}
	if len(games) == 0 {
		if in.Since, err = h.profiles.PublicBotsSince(ctx); err == nil && in.Since.IsZero() {
			err = errNotFound
		}
		if err != nil {
			h.fail(w, r, err)
			return
		}
	}
	if in.OpponentRatings, err = h.profiles.PublicBotOpponentRatings(ctx, name); err != nil {
		h.fail(w, r, err)
		return
	}
	for _, g := range games[max(0, len(games)-pastGamesShown):] { // the games listed
		h.nameSeats(ctx, in.Names, g.White.User, g.Black.User)
	}
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.PlayerProfilePage(views.NewBotPlayerPage(in)))
}
