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
	all, err := h.profiles.PublicBotGames(ctx)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if len(all) == 0 {
		h.fail(w, r, errNotFound)
		return
	}
	in := views.BotPageInput{Name: name, Games: views.GamesUnderName(name, all), Names: map[int64]string{},
		Since: all[0].StartedAt, Shown: pastGamesShown}
	if in.Since.IsZero() {
		in.Since = all[0].CreatedAt
	}
	if in.OpponentRatings, err = h.profiles.PublicBotOpponentRatings(ctx); err != nil {
		h.fail(w, r, err)
		return
	}
	for _, g := range in.Games[max(0, len(in.Games)-pastGamesShown):] { // the games listed
		h.nameSeats(ctx, in.Names, g.White.User, g.Black.User)
	}
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.PlayerProfilePage(views.NewBotPlayerPage(in)))
}
