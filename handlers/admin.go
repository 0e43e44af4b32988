package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"satranc/engine/cosmetics"
	"satranc/engine/fairplay"
	"satranc/engine/play"
	"satranc/views"
)

// Admin is what the administration pages need (SPEC section 10); the
// store implements it. Names are matched in any case; a missing member is
// account.ErrNotFound, a missing game play.ErrNotFound.
type Admin interface {
	FindMembers(ctx context.Context, query string, limit int) ([]fairplay.Member, error)
	Member(ctx context.Context, name string) (fairplay.Member, error)
	MemberGames(ctx context.Context, user int64, limit int) ([]fairplay.Game, error)
	SetVIP(ctx context.Context, name string, on bool) error
	SetRestricted(ctx context.Context, name string, on bool) error
	GrantChips(ctx context.Context, name string, amount int64, reason string) (int64, error)
	AdminGame(ctx context.Context, id int64) (fairplay.Game, error)
	ChatMessages(ctx context.Context, id int64) ([]play.ChatMessage, error)
	VoidGame(ctx context.Context, id int64, at time.Time) error
	Reports(ctx context.Context, limit int) ([]fairplay.Report, error)
	// A member's cosmetic items (admin_item.go).
	Inventory(ctx context.Context, userID int64) (cosmetics.Inventory, error)
	GrantItem(ctx context.Context, userID int64, item, reason string) (bool, error)
}

// VoidAnnouncer tells the live pages that a game's result was voided
// (play.Service.ResultVoided), so that the tournament standings open in
// browsers drop its points at once.
type VoidAnnouncer interface {
	ResultVoided(id int64, now time.Time)
}

// How much the administration pages list. (The largest grant is
// fairplay.MaxGrant, the same for `satranc admin grant`.)
const (
	adminMembersShown = 50
	adminGamesShown   = 30
	adminReportsShown = 200
)

// adminNotices are the confirmations a page shows after a change, by the
// done parameter of the redirect; anything else shows none.
var adminNotices = map[string]string{
	"vip_on": "admin.vip.done_on", "vip_off": "admin.vip.done_off",
	"restrict_on": "admin.restrict.done_on", "restrict_off": "admin.restrict.done_off",
	"granted": "admin.grant.done", "voided": "admin.void.done",
	"item_given": "admin.item.done", "item_owned": "admin.item.owned",
}

// adminRoutes registers the administration pages. Every one of them, and
// every POST, answers anyone but an administrator with the not-found page,
// guests included: the pages do not say that they exist. The changes go
// through fairplay.Service, as those of `satranc admin` do, so both check
// and announce alike.
func (h *Handler) adminRoutes(r chi.Router) {
	svc := fairplay.NewService(h.admin, h.voided) // a nil h.voided stays nil
	r.Route("/admin", func(r chi.Router) {
		r.Use(h.requireAdmin)
		r.Get("/", h.handleAdminSearch)
		r.Get("/reports", h.handleAdminReports)
		r.Get("/games", h.handleAdminGameLookup)
		r.Get("/games/{id}", h.handleAdminGame)
		r.Post("/games/{id}/void", h.handleAdminVoid(svc))
		r.Get("/users/{name}", h.handleAdminMember)
		r.Post("/users/{name}/vip", h.handleAdminFlag("vip", svc.SetVIP))
		r.Post("/users/{name}/restrict", h.handleAdminFlag("restrict", svc.SetRestricted))
		r.Post("/users/{name}/grant", h.handleAdminGrant(svc))
		r.Post("/users/{name}/item", h.handleAdminItem(svc))
	})
}

// requireAdmin lets only administrators through.
func (h *Handler) requireAdmin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, ok := userFrom(r.Context()); !ok || !u.Admin {
			h.fail(w, r, errNotFound)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// adminRedirect sends the browser to path after a change, with the done
// notice and the language of the request.
func adminRedirect(w http.ResponseWriter, r *http.Request, path, done string) {
	q := url.Values{"done": {done}}
	if loc := views.LocaleFrom(r.Context()); loc.FromURL {
		q.Set("lang", loc.Lang)
	}
	http.Redirect(w, r, path+"?"+q.Encode(), http.StatusSeeOther)
}

func (h *Handler) handleAdminSearch(w http.ResponseWriter, r *http.Request) {
	v := views.AdminSearchView{Query: strings.TrimSpace(r.URL.Query().Get("q"))}
	if v.Query != "" {
		var err error
		if v.Members, err = h.admin.FindMembers(r.Context(), v.Query, adminMembersShown); err != nil {
			h.fail(w, r, err)
			return
		}
		v.Searched = true
	}
	h.render(w, r, http.StatusOK, views.AdminSearchPage(v))
}

// handleAdminGameLookup opens the game whose number the search form gave.
func (h *Handler) handleAdminGameLookup(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(strings.TrimSpace(r.URL.Query().Get("id")), 10, 64)
	if err != nil || id <= 0 {
		h.fail(w, r, errNotFound)
		return
	}
	http.Redirect(w, r, views.Action(r.Context(), views.AdminGamePath(id)), http.StatusSeeOther)
}

func (h *Handler) handleAdminMember(w http.ResponseWriter, r *http.Request) {
	v, err := h.adminMemberView(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	v.Notice = adminNotices[r.URL.Query().Get("done")]
	h.render(w, r, http.StatusOK, views.AdminMemberPage(v))
}

// adminMemberRefused answers a refused form on a member's page: the page
// again with the message and what was typed (keep fills it in), or the
// error page for an error that is not the form's.
func (h *Handler) adminMemberRefused(w http.ResponseWriter, r *http.Request, err error, keep func(*views.AdminMemberView)) {
	resp := responseFor(err)
	if !resp.form {
		h.fail(w, r, err)
		return
	}
	v, verr := h.adminMemberView(r)
	if verr != nil {
		h.fail(w, r, verr)
		return
	}
	v.Error = &resp.msg
	keep(&v)
	h.render(w, r, resp.status, views.AdminMemberPage(v))
}

// adminMemberView reads the member of the route and their recent games.
func (h *Handler) adminMemberView(r *http.Request) (views.AdminMemberView, error) {
	m, err := h.admin.Member(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		return views.AdminMemberView{}, err
	}
	games, err := h.admin.MemberGames(r.Context(), m.ID, adminGamesShown)
	if err != nil {
		return views.AdminMemberView{}, err
	}
	inv, err := h.admin.Inventory(r.Context(), m.ID)
	if err != nil {
		return views.AdminMemberView{}, err
	}
	return views.AdminMemberView{Member: m, Games: games, Items: inv.Granted}, nil
}

// handleAdminFlag sets (on=on) or clears (on=off) a member's flag with
// set, and goes back to their page with the confirmation.
func (h *Handler) handleAdminFlag(flag string, set func(context.Context, string, bool) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		value := r.PostFormValue("on")
		if value != "on" && value != "off" {
			h.fail(w, r, errBadRequest)
			return
		}
		m, err := h.admin.Member(r.Context(), chi.URLParam(r, "name"))
		if err == nil {
			err = set(r.Context(), m.Name, value == "on")
		}
		if err != nil {
			h.fail(w, r, err)
			return
		}
		adminRedirect(w, r, views.AdminMemberPath(m.Name), flag+"_"+value)
	}
}

// handleAdminGrant grants a member chips (fields amount and reason), or
// shows the form again with what was wrong: an amount that is not a whole
// number from 1 to fairplay.MaxGrant, a reason that is not one line, or a
// grant that would take the balance past the largest the ledger holds.
func (h *Handler) handleAdminGrant(svc *fairplay.Service) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		amountText := strings.TrimSpace(r.PostFormValue("amount"))
		reason := r.PostFormValue("reason")
		m, err := h.admin.Member(r.Context(), chi.URLParam(r, "name"))
		if err != nil {
			h.fail(w, r, err)
			return
		}
		amount, err := fairplay.ParseGrant(amountText)
		if err == nil {
			_, err = svc.Grant(r.Context(), m.Name, amount, reason)
		}
		if err == nil {
			adminRedirect(w, r, views.AdminMemberPath(m.Name), "granted")
			return
		}
		h.adminMemberRefused(w, r, err, func(v *views.AdminMemberView) {
			v.Amount, v.Reason = amountText, reason
		})
	}
}

func (h *Handler) handleAdminGame(w http.ResponseWriter, r *http.Request) {
	v, err := h.adminGameView(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	v.Notice = adminNotices[r.URL.Query().Get("done")]
	h.render(w, r, http.StatusOK, views.AdminGamePage(v))
}

// adminGameView reads the game of the route and its chat, each message
// with its sender's name.
func (h *Handler) adminGameView(r *http.Request) (views.AdminGameView, error) {
	id, err := gameID(r)
	if err != nil {
		return views.AdminGameView{}, err
	}
	g, err := h.admin.AdminGame(r.Context(), id)
	if err != nil {
		return views.AdminGameView{}, err
	}
	msgs, err := h.admin.ChatMessages(r.Context(), id)
	if err != nil {
		return views.AdminGameView{}, err
	}
	names := map[int64]string{g.WhiteID: g.White, g.BlackID: g.Black}
	v := views.AdminGameView{Game: g, Chat: make([]views.AdminChatLine, len(msgs))}
	for i, m := range msgs {
		from := names[m.User]
		if from == "" {
			from = "#" + strconv.FormatInt(m.User, 10)
		}
		v.Chat[i] = views.AdminChatLine{From: from, Text: m.Body, At: m.At}
	}
	return v, nil
}

// handleAdminVoid voids the game's result (which tells the open pages)
// and shows the game again with the confirmation, or with why it was
// refused (voided already, not finished).
func (h *Handler) handleAdminVoid(svc *fairplay.Service) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := gameID(r)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		// The request's time is the void's: the edge reads the clock, the
		// service and the store take it as given.
		if err := svc.Void(r.Context(), id, time.Now()); err != nil {
			resp := responseFor(err)
			if !resp.form {
				h.fail(w, r, err)
				return
			}
			v, verr := h.adminGameView(r)
			if verr != nil {
				h.fail(w, r, verr)
				return
			}
			v.Error = &resp.msg
			h.render(w, r, resp.status, views.AdminGamePage(v))
			return
		}
		adminRedirect(w, r, views.AdminGamePath(id), "voided")
	}
}

func (h *Handler) handleAdminReports(w http.ResponseWriter, r *http.Request) {
	reports, err := h.admin.Reports(r.Context(), adminReportsShown)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.AdminReportsPage(reports))
}
