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
