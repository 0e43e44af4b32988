package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"satranc/engine/chips"
	"satranc/engine/clock"
	"satranc/engine/live"
	"satranc/engine/lobby"
	"satranc/views"
)

// Lobby is what the lobby pages need of engine/lobby.
type Lobby interface {
	Overview(ctx context.Context, user int64) (lobby.Overview, error)
	Join(ctx context.Context, user int64, t lobby.Table) error
	Cancel(ctx context.Context, user int64) error
	Status(ctx context.Context, user int64) (lobby.Status, error)
	Subscribe(user int64) *live.Subscription[int64, lobby.Event]
}

// lobbyRoutes registers the lobby pages; every one needs a logged-in user.
func (h *Handler) lobbyRoutes(r chi.Router) {
	r.Get("/lobby", h.handleLobby)
	r.Get("/play/quick/{control}", h.handleQuickPlay)
	if h.bonus != nil {
		r.Post("/lobby/bonus", h.handleBonusClaim)
	}
	// The queues are in the memory of one node of a cluster (forward.go).
	queues := r.With(h.forward)
	queues.Post("/lobby/join", h.handleLobbyJoin)
	queues.Post("/lobby/cancel", h.handleLobbyCancel)
	queues.Get("/lobby/wait", h.handleLobbyWait)
	queues.Get("/lobby/wait/events", h.handleLobbyWaitEvents)
}

func (h *Handler) handleLobby(w http.ResponseWriter, r *http.Request) {
	u, _ := userFrom(r.Context())
	o, err := h.lobby.Overview(r.Context(), u.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	v := views.NewLobbyView(o, nil)
	switch r.URL.Query().Get("bonus") {
	case "claimed":
		v.Notice = &views.Message{ID: "lobby.bonus.claimed"}
	case "already":
		v.Notice = &views.Message{ID: "lobby.bonus.already"}
	}
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.LobbyPage(v))
}

// lobbyPage returns the lobby page of user, with a place for an error.
func (h *Handler) lobbyPage(ctx context.Context, user int64) (func(*views.Message) templ.Component, error) {
	o, err := h.lobby.Overview(ctx, user)
	if err != nil {
		return nil, err
	}
	return func(m *views.Message) templ.Component { return views.LobbyPage(views.NewLobbyView(o, m)) }, nil
}

// handleLobbyJoin puts the user in a queue: Quick Play, or the lounge
// named by the form, with its time control. A refusal shows the lobby
// again with the reason.
func (h *Handler) handleLobbyJoin(w http.ResponseWriter, r *http.Request) {
	u, _ := userFrom(r.Context())
	control, err := clock.ParseControl(r.PostFormValue("control"))
	if err != nil {
		h.fail(w, r, errors.Join(errBadRequest, err))
		return
	}
	t := lobby.Table{Lounge: strings.TrimSpace(r.PostFormValue("lounge")), Control: control}
	err = h.createLimit.allowUser(r)
	if err == nil {
		err = h.lobby.Join(r.Context(), u.ID, t)
	}
	if err != nil {
		page, perr := h.lobbyPage(r.Context(), u.ID)
		if perr != nil {
			h.fail(w, r, errors.Join(err, perr))
			return
		}
		h.failForm(w, r, err, page)
		return
	}
	http.Redirect(w, r, views.Action(r.Context(), "/lobby/wait"), http.StatusSeeOther)
}

func (h *Handler) handleLobbyCancel(w http.ResponseWriter, r *http.Request) {
	u, _ := userFrom(r.Context())
	err := h.lobby.Cancel(r.Context(), u.ID)
	if errors.Is(err, lobby.ErrStarting) {
		// Too late: the game is starting; the waiting page goes there.
		http.Redirect(w, r, views.Action(r.Context(), "/lobby/wait"), http.StatusSeeOther)
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, views.Action(r.Context(), "/lobby"), http.StatusSeeOther)
}

// handleLobbyWait shows the waiting page, or sends the player on: to the
// game once it has started (with HX-Redirect for htmx's request from the
// waiting panel), to the lobby when they do not wait.
func (h *Handler) handleLobbyWait(w http.ResponseWriter, r *http.Request) {
	u, _ := userFrom(r.Context())
	st, err := h.lobby.Status(r.Context(), u.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	v := waitView(st)
	htmx := r.Header.Get("HX-Request") == "true"
	switch {
	case st.State == lobby.Waiting, st.State == lobby.Starting,
		st.State == lobby.Paired && st.Unstaked && !htmx:
		// An unstaked game is announced on the waiting page before the
		// player goes to the table (SPEC section 5).
		h.render(w, r, http.StatusOK, views.WaitPage(v))
		return
	case st.State == lobby.Failed:
		page, perr := h.lobbyPage(r.Context(), u.ID)
		if perr != nil {
			h.fail(w, r, perr)
			return
		}
		h.render(w, r, http.StatusOK, page(&views.Message{ID: "lobby.wait.failed"}))
		return
	}
	to := "/lobby"
	if st.State == lobby.Paired {
		to = v.GamePath()
	}
	to = views.Action(r.Context(), to)
	if htmx {
		w.Header().Set("HX-Redirect", to)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// waitView builds the waiting panel of st.
func waitView(st lobby.Status) views.WaitView {
	var name string
	var stake int64
	if l, err := chips.LoungeBySlug(st.Table.Lounge); err == nil {
		name, stake = l.Name, l.Stake
	}
	return views.NewWaitView(st, name, stake, time.Now())
}
