package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"satranc/engine/clock"
	"satranc/engine/tourney"
	"satranc/views"
)

// handleHome shows the home page: the Quick Play grid, the first few games
// to watch (live, through the Watch stream) and today's Daily Chess Cup
// leaders for everyone; for a member also their game in progress,
// practice against the computer, a game with a friend and the lounges.
func (h *Handler) handleHome(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v := views.HomeView{Controls: clock.Offered}
	if h.inPlay != nil {
		players, games, err := h.playCounts.get(ctx, h.inPlay, time.Now())
		if err != nil {
			h.log.WarnContext(ctx, "play counts", "err", err)
		} else {
			v.HasCounts, v.Players, v.Games = true, players, games
			v.Online = h.online.count(time.Now())
		}
	}
	if h.games != nil && h.inPlay != nil && h.accounts != nil {
		v.Watch, v.WatchGames = true, views.MiniGamesAt(h.watch.list(ctx, homeWatchLimit), time.Now())
		// Live, and for everyone: kept out of the back-forward cache too,
		// where Chromium holds a page's event stream open, so that a few
		// visits back and forth would take every connection the browser
		// allows the site.
		w.Header().Set("Cache-Control", "no-store")
	}
	if h.tourneys != nil {
		v.Cup, v.Leaders = true, h.cupLeaders(ctx)
	}
	if u, ok := userFrom(ctx); ok {
		v.Member = true
		v.Game = views.ActiveGame(ctx)
		if h.lobby != nil {
			o, err := h.lobby.Overview(ctx, u.ID)
			if err != nil {
				h.fail(w, r, err)
				return
			}
			lv := views.NewLobbyView(o, nil)
			v.Lobby = &lv
		}
		w.Header().Set("Cache-Control", "no-store")
	}
	h.render(w, r, http.StatusOK, views.HomePage(v))
}

// handleQuickPlay is the one-click page that puts a member in the Quick
// Play queue of the control in the path: where a guest who chose it on the
// home page lands after signing up or logging in (with ?go=1, which makes
// the page's script submit it at once).
func (h *Handler) handleQuickPlay(w http.ResponseWriter, r *http.Request) {
	c, err := clock.ParseControl(chi.URLParam(r, "control"))
	if err != nil || !offered(c) {
		h.fail(w, r, errNotFound)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.QuickPlayPage(c.String(), r.URL.Query().Get("go") == "1"))
}

// offered reports whether c is one of the time controls of SPEC section 4.
func offered(c clock.Control) bool {
	for _, o := range clock.Offered {
		if o == c {
			return true
		}
	}
	return false
}

// homeLeaders is how many of today's Daily Chess Cup leaders the home page
// shows.
const homeLeaders = 5

// homeStandingsAge is how old the Cup's standings on the home page may
// be: the pages asking within it share one read (StandingsAfter), and
// the tournament page itself is live.
const homeStandingsAge = 30 * time.Second

// cupLeaders returns the first places of today's Daily Chess Cup; an
// error is logged and shows none.
func (h *Handler) cupLeaders(ctx context.Context) []tourney.Standing {
	ss, err := h.tourneys.StandingsAfter(ctx, h.tourneys.Current(tourney.Daily), time.Now().Add(-homeStandingsAge))
	if err != nil {
		h.log.WarnContext(ctx, "cup leaders", "err", err)
		return nil
	}
	return ss[:min(homeLeaders, len(ss))]
}
