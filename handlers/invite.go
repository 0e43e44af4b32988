package handlers

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"satranc/views"
)

// handleInviteShow shows a private game's invitation: who invites, the
// time control and that the game is unrated, with Accept and Decline for
// a member and the way through sign-up or log-in (and back here) for a
// guest. A player of the game goes straight to it. Opening a link (a GET)
// changes nothing.
func (h *Handler) handleInviteShow(w http.ResponseWriter, r *http.Request) {
	token := strings.TrimSpace(chi.URLParam(r, "token"))
	snap, err := h.games.Invitation(r.Context(), token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	user, member := userFrom(r.Context())
	if _, playing := snap.SideOf(user.ID); member && playing {
		http.Redirect(w, r, gamePath(r, snap.ID), http.StatusSeeOther)
		return
	}
	host := snap.White
	if !host.IsHuman() {
		host = snap.Black
	}
	v := views.InviteView{
		Path:     "/invite/" + token,
		GamePath: "/games/" + strconv.FormatInt(snap.ID, 10),
		Control:  snap.Control,
		Guest:    !member,
		Status:   snap.Status,
		Outcome:  snap.Outcome,
	}
	if !snap.JoinBy.IsZero() {
		v.ExpiresIn = max(time.Until(snap.JoinBy), time.Second)
	}
	if u, err := h.users.UserByID(r.Context(), host.User); err == nil {
		v.Host = u.Name
	} else {
		h.log.WarnContext(r.Context(), "invitation: host name", "user", host.User, "err", err)
	}
	if h.profiles != nil {
		if rating, err := h.profiles.Rating(r.Context(), host.User); err == nil {
			v.HostRating = rating
		} else {
			h.log.WarnContext(r.Context(), "invitation: host rating", "user", host.User, "err", err)
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.InvitePage(v))
}

// handleInviteDecline refuses a private game's invitation: the waiting
// game is cancelled, as when the invitation expires, and the creator's
// page hears of it on the game's stream. The decliner sees the invitation
// again, now closed. It counts against the creation limit, as accepting
// does, so that it cannot serve a search for tokens either.
func (h *Handler) handleInviteDecline(w http.ResponseWriter, r *http.Request) {
	user, _ := userFrom(r.Context())
	if err := h.createLimit.allowUser(r); err != nil {
		h.fail(w, r, err)
		return
	}
	token := strings.TrimSpace(chi.URLParam(r, "token"))
	if _, err := h.games.DeclinePrivateGame(r.Context(), user.ID, token); err != nil {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, views.Action(r.Context(), "/invite/"+token), http.StatusSeeOther)
}
