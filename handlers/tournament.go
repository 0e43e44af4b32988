package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"satranc/engine/tourney"
	"satranc/views"
)

// Tournaments runs the Daily Chess Cup and the Weekly Chess League;
// *tourney.Service implements it.
type Tournaments interface {
	// Current returns the period of k running now.
	Current(k tourney.Kind) tourney.Period
	// Period returns the period of k with key; a malformed key is an error
	// wrapping tourney.ErrInvalid.
	Period(k tourney.Kind, key string) (tourney.Period, error)
	// Standings returns p's standings, ranked.
	Standings(ctx context.Context, p tourney.Period) ([]tourney.Standing, error)
	// StandingsAfter returns p's standings as read at after or later,
	// shared by the streams that ask together.
	StandingsAfter(ctx context.Context, p tourney.Period, after time.Time) ([]tourney.Standing, error)
	// Prizes returns the prize table of k.
	Prizes(k tourney.Kind) []tourney.Prize
	// Results returns the latest paid periods of k with winners.
	Results(ctx context.Context, k tourney.Kind, limit int) ([]tourney.Result, error)
	// Result returns the paid period of k with key; ok is false while it
	// is unpaid.
	Result(ctx context.Context, k tourney.Kind, key string) (r tourney.Result, ok bool, err error)
	// PrizesWon returns the prizes a player won, the latest first.
	PrizesWon(ctx context.Context, user int64, limit int) ([]tourney.Won, error)
}

// tournamentRoutes adds the tournament pages, open to everyone: the
// running period of each tournament (live with Games), its stream, and
// past periods.
func (h *Handler) tournamentRoutes(r chi.Router) {
	r.Get("/tournaments", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, views.TournamentPath(tourney.Daily), http.StatusSeeOther)
	})
	r.Get("/tournaments/{kind}", h.handleTournamentShow)
	if h.games != nil {
		r.Get("/tournaments/{kind}/events", h.handleTournamentEvents)
	}
	r.Get("/tournaments/{kind}/{period}", h.handleTournamentPast)
}

// tournamentKind reads the {kind} of the URL; an unknown one wraps
// tourney.ErrInvalid (a 404).
func tournamentKind(r *http.Request) (tourney.Kind, error) {
	return tourney.ParseKind(chi.URLParam(r, "kind"))
}

// standingsView builds the standings panel of p for the viewer of ctx, with the
// standings as read at after or later (zero: now).
func (h *Handler) standingsView(ctx context.Context, p tourney.Period, live bool, after time.Time) (views.StandingsView, error) {
	var ss []tourney.Standing
	var err error
	if after.IsZero() {
		ss, err = h.tourneys.Standings(ctx, p)
	} else {
		ss, err = h.tourneys.StandingsAfter(ctx, p, after)
	}
	if err != nil {
		return views.StandingsView{}, err
	}
	v := views.StandingsView{Period: p, Live: live, Standings: ss}
	if u, ok := userFrom(ctx); ok {
		v.Viewer = u.ID
	}
	return v, nil
}

// handleTournamentShow shows the running period of a tournament with its
// prize table and the latest past periods.
func (h *Handler) handleTournamentShow(w http.ResponseWriter, r *http.Request) {
	k, err := tournamentKind(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	panel, err := h.standingsView(r.Context(), h.tourneys.Current(k), true, time.Time{})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	past, err := h.tourneys.Results(r.Context(), k, views.PastResults)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.TournamentPage(views.TournamentView{Panel: panel, Stream: h.games != nil, Prizes: h.tourneys.Prizes(k), Past: past}))
}

// handleTournamentPast shows an ended period: its final standings and who
// won which prize. The running period's key leads to the live page; a
// period still to come is not found.
func (h *Handler) handleTournamentPast(w http.ResponseWriter, r *http.Request) {
	k, err := tournamentKind(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := h.tourneys.Period(k, chi.URLParam(r, "period"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	switch current := h.tourneys.Current(k); {
	case p == current:
		http.Redirect(w, r, views.TournamentPath(k), http.StatusSeeOther)
		return
	case p.Start.After(current.Start):
		h.fail(w, r, errNotFound)
		return
	}
	panel, err := h.standingsView(r.Context(), p, false, time.Time{})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	res, paid, err := h.tourneys.Result(r.Context(), k, p.Key())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	past, err := h.tourneys.Results(r.Context(), k, views.PastResults)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	v := views.TournamentView{Panel: panel, Paid: paid, Winners: res.Winners, Past: past}
	h.render(w, r, http.StatusOK, views.TournamentPage(v))
}
