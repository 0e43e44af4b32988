package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"satranc/engine/account"
	"satranc/engine/play"
	"satranc/views"
)

// pastGamesShown is how many past games a profile lists.
const pastGamesShown = 50

// Profiles is what the player pages need; the store implements it.
type Profiles interface {
	UserByName(ctx context.Context, name string) (account.User, error)
	Stats(ctx context.Context, user int64) (play.Stats, error)
	// Rating is Stats' rating alone, for the pages that show no more of
	// the figures (the player bars, a PGN, an invitation).
	Rating(ctx context.Context, user int64) (int, error)
	RatingHistory(ctx context.Context, user int64) ([]play.RatingChange, error)
	Balance(ctx context.Context, user int64) (int64, error)
	PlayerGames(ctx context.Context, user int64, limit int) ([]play.GameRecord, error)
	// PublicBotGames, PublicBotOpponentRatings and PublicBotsSince are
	// what the profiles of the names computer players go by are made of
	// (profile_bot.go).
	PublicBotGames(ctx context.Context, name string) ([]play.GameRecord, error)
	PublicBotOpponentRatings(ctx context.Context, name string) (map[int64]int, error)
	PublicBotsSince(ctx context.Context) (time.Time, error)
}

// profileRoutes registers the public player and replay pages.
func (h *Handler) profileRoutes(r chi.Router) {
	r.Get("/players/{name}", h.handlePlayer)
	if h.games != nil {
		r.Get("/replay/{id}", h.handleReplay)
	}
}

// handlePlayer shows a player's profile; the balance only to themselves.
// A name computer players go by at public tables has a profile too, the
// same page (profile_bot.go).
func (h *Handler) handlePlayer(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	name := chi.URLParam(r, "name")
	u, err := h.profiles.UserByName(ctx, name)
	if bot, ok := views.BotName(name); ok && errors.Is(err, account.ErrNotFound) {
		h.handleBotPlayer(w, r, bot)
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	in := views.PlayerPageInput{User: u, Names: map[int64]string{}}
	if viewer, ok := userFrom(ctx); ok && viewer.ID == u.ID {
		in.Own = true
		if in.Balance, err = h.profiles.Balance(ctx, u.ID); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	if in.Stats, err = h.profiles.Stats(ctx, u.ID); err != nil {
		h.fail(w, r, err)
		return
	}
	if in.History, err = h.profiles.RatingHistory(ctx, u.ID); err != nil {
		h.fail(w, r, err)
		return
	}
	if in.Games, err = h.profiles.PlayerGames(ctx, u.ID, pastGamesShown); err != nil {
		h.fail(w, r, err)
		return
	}
	for _, g := range in.Games {
		h.nameSeats(ctx, in.Names, g.White.User, g.Black.User)
	}
	if h.tourneys != nil {
		if in.Prizes, err = h.tourneys.PrizesWon(ctx, u.ID, views.PrizesShown); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.PlayerProfilePage(views.NewPlayerPage(in)))
}

// nameSeats adds the names of users to names; one that cannot be found
// stays unnamed.
func (h *Handler) nameSeats(ctx context.Context, names map[int64]string, users ...int64) {
	for _, id := range users {
		if id <= 0 || names[id] != "" || h.users == nil {
			continue
		}
		if u, err := h.users.UserByID(ctx, id); err == nil {
			names[id] = u.Name
		}
	}
}

// handleReplay shows a finished game at ?ply= (the end by default). A game
// still being played has no replay: its own page shows it.
func (h *Handler) handleReplay(w http.ResponseWriter, r *http.Request) {
	snap, ok := h.routeGame(w, r)
	if !ok {
		return
	}
	id := snap.ID
	if !snap.Status.Over() {
		http.Redirect(w, r, gamePath(r, id), http.StatusSeeOther)
		return
	}
	ply := len(snap.Moves)
	if s := r.URL.Query().Get("ply"); s != "" {
		var err error
		if ply, err = strconv.Atoi(s); err != nil {
			h.fail(w, r, errBadRequest)
			return
		}
	}
	p := h.seatedPlayers(r.Context(), snap)
	var viewer int64 // a player sees their own side at the bottom
	if u, ok := userFrom(r.Context()); ok {
		viewer = u.ID
	}
	v := views.NewReplayView(snap, ply, views.GameViewInput{Viewer: viewer, Names: p.names, Frames: p.frames, Ratings: p.ratings,
		Letters: letters(r.Context()), Now: time.Now(), Opening: openingAt(snap, ply)})
	h.render(w, r, http.StatusOK, views.ReplayPage(v))
}
