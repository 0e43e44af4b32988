package handlers

import (
	"fmt"
	"net/http"

	"github.com/a-h/templ"

	"satranc/engine/account"
	"satranc/views"
)

// handleProfile shows the member's profile form; ?saved=1 (the redirect
// after a save) adds the confirmation.
func (h *Handler) handleProfile(w http.ResponseWriter, r *http.Request) {
	u, _ := userFrom(r.Context()) // requireUser ran
	h.render(w, r, http.StatusOK, views.ProfilePage(views.ProfileForm{
		User:     u,
		Language: u.Language,
		Gender:   u.Gender,
		Saved:    r.URL.Query().Get("saved") == "1",
	}))
}

// handleProfileSave saves the profile form and shows the page again (by a
// redirect, so reloading it posts nothing), now in the chosen language.
func (h *Handler) handleProfileSave(w http.ResponseWriter, r *http.Request) {
	u, _ := userFrom(r.Context()) // requireUser ran
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, fmt.Errorf("%w: %w", errBadRequest, err))
		return
	}
	f := views.ProfileForm{User: u, Language: r.PostFormValue("language")}
	page := func(m *views.Message) templ.Component {
		f.Error = m
		return views.ProfilePage(f)
	}
	g, err := account.ParseGender(r.PostFormValue("gender"))
	if err != nil {
		h.failForm(w, r, err, page)
		return
	}
	f.Gender = g
	if _, err := h.accounts.UpdateProfile(r.Context(), u.ID, account.Profile{Language: f.Language, Gender: g}); err != nil {
		h.failForm(w, r, err, page)
		return
	}
	redirectTo(w, r, "/profile?saved=1")
}
