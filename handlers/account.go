package handlers

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/a-h/templ"

	"satranc/views"
)

// accountForm reads the username and next fields of a sign-up or log-in
// form, to show them again if the form fails.
func accountForm(r *http.Request) views.AccountForm {
	return views.AccountForm{
		Username: strings.TrimSpace(r.PostFormValue("username")),
		Next:     localPath(r.PostFormValue("next")),
	}
}

// withError returns a function that shows page with f and a message.
func withError(f views.AccountForm, page func(views.AccountForm) templ.Component) func(*views.Message) templ.Component {
	return func(m *views.Message) templ.Component {
		f.Error = m
		return page(f)
	}
}

// handleSignupForm shows the sign-up form.
func (h *Handler) handleSignupForm(w http.ResponseWriter, r *http.Request) {
	next := localPath(r.URL.Query().Get("next"))
	h.render(w, r, http.StatusOK, views.SignupPage(views.AccountForm{Next: next}))
}

// handleSignup creates an account in the page's language, logs it in and
// goes on to next.
func (h *Handler) handleSignup(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, fmt.Errorf("%w: %w", errBadRequest, err))
		return
	}
	f := accountForm(r)
	if err := h.signupLimit.allow(r); err != nil {
		h.failForm(w, r, err, withError(f, views.SignupPage))
		return
	}
	_, sess, err := h.accounts.SignUp(r.Context(), f.Username, r.PostFormValue("password"), views.Lang(r.Context()))
	if err != nil {
		h.failForm(w, r, err, withError(f, views.SignupPage))
		return
	}
	setSessionCookie(w, r, sess)
	redirectTo(w, r, f.Next)
}

// handleLoginForm shows the log-in form.
func (h *Handler) handleLoginForm(w http.ResponseWriter, r *http.Request) {
	next := localPath(r.URL.Query().Get("next"))
	h.render(w, r, http.StatusOK, views.LoginPage(views.AccountForm{Next: next}))
}

// handleLogin checks the name and password, starts a fresh session in
// place of any old one, and goes on to next.
func (h *Handler) handleLogin(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, fmt.Errorf("%w: %w", errBadRequest, err))
		return
	}
	f := accountForm(r)
	if err := h.loginLimit.allow(r); err != nil {
		h.failForm(w, r, err, withError(f, views.LoginPage))
		return
	}
	_, sess, err := h.accounts.LogIn(r.Context(), f.Username, r.PostFormValue("password"), sessionToken(r))
	if err != nil {
		h.failForm(w, r, err, withError(f, views.LoginPage))
		return
	}
	setSessionCookie(w, r, sess)
	redirectTo(w, r, f.Next)
}

// handleLogout ends the session and returns to the front page.
func (h *Handler) handleLogout(w http.ResponseWriter, r *http.Request) {
	if err := h.accounts.LogOut(r.Context(), sessionToken(r)); err != nil {
		h.fail(w, r, err)
		return
	}
	clearCookie(w, r, sessionCookie)
	redirectTo(w, r, "/")
}
