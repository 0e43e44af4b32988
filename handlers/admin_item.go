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
func (h *Handler) handleAdminItem(w http.ResponseWriter, r *http.Request) {
	item, reasonText := r.PostFormValue("item"), r.PostFormValue("reason")
	m, err := h.admin.Member(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var given bool
	reason, err := fairplay.ParseReason(reasonText)
	if err == nil {
		given, err = h.admin.GrantItem(r.Context(), m.ID, item, reason)
	}
	if err == nil {
		done := "item_owned"
		if given {
			done = "item_given"
		}
		adminRedirect(w, r, views.AdminMemberPath(m.Name), done)
		return
	}
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
	v.Error, v.Item, v.ItemReason = &resp.msg, item, reasonText
	h.render(w, r, resp.status, views.AdminMemberPage(v))
}
