package handlers

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"satranc/engine/fairplay"
	"satranc/views"
)

// handleAdminItem gives a member a cosmetic item (fields item and reason):
// an item they own already changes nothing and says so; an unknown item or
// a bad reason shows the form again with what was wrong.
func (h *Handler) handleAdminItem(svc *fairplay.Service) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		item, reasonText := r.PostFormValue("item"), r.PostFormValue("reason")
		m, err := h.admin.Member(r.Context(), chi.URLParam(r, "name"))
		if err != nil {
			h.fail(w, r, err)
			return
		}
		given, err := svc.GiveItem(r.Context(), m.ID, item, reasonText)
		if err == nil {
			done := "item_owned"
			if given {
				done = "item_given"
			}
			adminRedirect(w, r, views.AdminMemberPath(m.Name), done)
			return
		}
		h.adminMemberRefused(w, r, err, func(v *views.AdminMemberView) {
			v.Item, v.ItemReason = item, reasonText
		})
	}
}
