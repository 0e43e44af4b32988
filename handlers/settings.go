package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/a-h/templ"

	"satranc/engine/cosmetics"
	"satranc/views"
)

// Cosmetics is what the settings page needs (cosmetics.Service implements
// it).
type Cosmetics interface {
	Inventory(ctx context.Context, userID int64) (cosmetics.Inventory, error)
	Choose(ctx context.Context, userID int64, l cosmetics.Look) error
}

// handleSettings shows the member's look with every item to choose from;
// ?saved=1 (the redirect after a save) adds the confirmation.
func (h *Handler) handleSettings(w http.ResponseWriter, r *http.Request) {
	f, err := h.settingsForm(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	f.Saved = r.URL.Query().Get("saved") == "1"
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.SettingsPage(f))
}

// handleSettingsSave saves the chosen board theme, piece set and frame. A
// choice of an item the member does not own, or that does not exist,
// changes nothing and shows the form again with the reason.
func (h *Handler) handleSettingsSave(w http.ResponseWriter, r *http.Request) {
	u, _ := userFrom(r.Context()) // requireUser ran
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, fmt.Errorf("%w: %w", errBadRequest, err))
		return
	}
	look := cosmetics.Look{
		Board:  r.PostFormValue(cosmetics.BoardTheme.String()),
		Pieces: r.PostFormValue(cosmetics.PieceSet.String()),
		Frame:  r.PostFormValue(cosmetics.Frame.String()),
	}
	if err := h.cosmetics.Choose(r.Context(), u.ID, look); err != nil {
		f, ferr := h.settingsForm(r)
		if ferr != nil {
			h.fail(w, r, errors.Join(err, ferr))
			return
		}
		h.failForm(w, r, err, func(m *views.Message) templ.Component {
			f.Error = m
			return views.SettingsPage(f)
		})
		return
	}
	redirectTo(w, r, "/settings?saved=1")
}

// handleSettingsSound turns the game page's sounds on (sound=on) or off
// (sound=off) for the member, from the settings page or the switch on the
// game page. The switch posts with htmx and gets itself back, showing the
// new choice; a plain form goes on to next (a local path), else to the
// settings page.
func (h *Handler) handleSettingsSound(w http.ResponseWriter, r *http.Request) {
	u, _ := userFrom(r.Context()) // requireUser ran
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, fmt.Errorf("%w: %w", errBadRequest, err))
		return
	}
	var on bool
	switch r.PostFormValue("sound") {
	case "on":
		on = true
	case "off":
	default:
		h.fail(w, r, errBadRequest)
		return
	}
	if err := h.accounts.SaveSound(r.Context(), u.ID, on); err != nil {
		h.fail(w, r, err)
		return
	}
	if isHTMX(r) {
		h.render(w, r, http.StatusOK, views.SoundSwitch(on))
		return
	}
	next := r.PostFormValue("next")
	if localPath(next) == "" {
		next = "/settings?saved=1"
	}
	redirectTo(w, r, next)
}

// settingsForm reads what the settings page shows for the request's
// member: their saved look and their inventory.
func (h *Handler) settingsForm(r *http.Request) (views.SettingsForm, error) {
	u, _ := userFrom(r.Context()) // requireUser ran
	inv, err := h.cosmetics.Inventory(r.Context(), u.ID)
	if err != nil {
		return views.SettingsForm{}, err
	}
	return views.SettingsForm{User: u, Look: u.Look.Normal(), Inventory: inv}, nil
}
