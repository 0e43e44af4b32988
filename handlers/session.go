package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"satranc/engine/account"
	"satranc/views"
)

// sessionCookie is the name of the cookie holding the session token.
const sessionCookie = "session"

// Accounts is what the handlers need from the account use cases
// (account.Service implements it).
type Accounts interface {
	SignUp(ctx context.Context, name, password, lang string) (account.User, account.Session, error)
	LogIn(ctx context.Context, name, password, oldToken string) (account.User, account.Session, error)
	LogOut(ctx context.Context, token string) error
	UserBySession(ctx context.Context, token string) (account.User, error)
	UpdateProfile(ctx context.Context, userID int64, p account.Profile) (account.User, error)
	SaveSound(ctx context.Context, userID int64, on bool) error
}

// userFrom returns the logged-in user of the request context; ok is false
// for a guest. The value lives under views' context key, so that the
// layout shows the same user.
func userFrom(ctx context.Context) (u account.User, ok bool) {
	return views.CurrentUser(ctx)
}

// withUser returns a copy of ctx with u as the logged-in user.
func withUser(ctx context.Context, u account.User) context.Context {
	return views.WithUser(ctx, u)
}

// page is the middleware every page runs in: it loads the session's user
// (sessionContext), then picks the language (localeContext), and gives
// the footer the support contact and the version, all in one copy of the
// request: a copy for each of them was 4.4% of what the server allocated
// at 5,000 games.
func (h *Handler) page(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, ok := h.sessionContext(w, r)
		if !ok {
			return
		}
		ctx = h.localeContext(ctx, w, r)
		if h.support != "" {
			ctx = views.WithSupportContact(ctx, h.support)
		}
		if h.version != "" {
			ctx = views.WithVersion(ctx, h.version) // views.Version, in the footer
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// sessionContext returns the request's context with the user of the
// session cookie, if any. An unknown or expired session cookie is
// deleted; a failure to read the session is answered, and ok is false.
func (h *Handler) sessionContext(w http.ResponseWriter, r *http.Request) (ctx context.Context, ok bool) {
	ctx = r.Context()
	token := sessionToken(r)
	if token == "" || h.accounts == nil {
		return ctx, true
	}
	u, err := h.accounts.UserBySession(ctx, token)
	switch {
	case errors.Is(err, account.ErrNoSession):
		clearCookie(w, r, sessionCookie)
		return ctx, true
	case err != nil:
		h.fail(w, r, err)
		return nil, false
	}
	ctx = withUser(ctx, u)
	h.online.saw(u.ID, time.Now())
	if h.inPlay != nil {
		ctx = views.WithActiveGame(ctx, h.activeGame(ctx, u.ID))
	}
	return ctx, true
}

// requireUser lets only members through; a guest is sent to the log-in
// page, which brings them back to the page they asked for.
func (h *Handler) requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := userFrom(r.Context()); ok {
			next.ServeHTTP(w, r)
			return
		}
		target := "/login"
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			target += "?" + url.Values{"next": {r.URL.RequestURI()}}.Encode()
		}
		http.Redirect(w, r, target, http.StatusSeeOther)
	})
}

// sessionToken returns the session cookie's value, or "".
func sessionToken(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	return c.Value
}

// setSessionCookie gives the browser the session s.
func setSessionCookie(w http.ResponseWriter, r *http.Request, s account.Session) {
	setCookie(w, r, sessionCookie, s.Token, s.Expires)
}

// setCookie sets a site-wide cookie that scripts cannot read, sent on
// top-level navigation from other sites but not on their sub-requests
// (SameSite=Lax), and only over TLS when the browser reached us over TLS
// (directly or at a trusted proxy).
func setCookie(w http.ResponseWriter, r *http.Request, name, value string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{
		Name:     name,
		Value:    value,
		Path:     "/",
		Expires:  expires,
		HttpOnly: true,
		Secure:   isSecure(r),
		SameSite: http.SameSiteLaxMode,
	})
}

// clearCookie tells the browser to delete the cookie name.
func clearCookie(w http.ResponseWriter, r *http.Request, name string) {
	http.SetCookie(w, &http.Cookie{
		Name:     name,
		Path:     "/",
		MaxAge:   -1,
		HttpOnly: true,
		Secure:   isSecure(r),
		SameSite: http.SameSiteLaxMode,
	})
}

// localPath returns s if it is a path on this site ("/profile?x=1"), and
// "" otherwise, so that a next parameter cannot send anyone to another site
// ("//evil.example", "https://…", "/\\evil.example").
func localPath(s string) string {
	if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") || strings.ContainsAny(s, "\\\x00\r\n\t") {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return ""
	}
	return s
}

// redirectTo sends the browser to the local path next, or to the front
// page, after a form was handled (303: the next request is a GET).
func redirectTo(w http.ResponseWriter, r *http.Request, next string) {
	if next = localPath(next); next == "" {
		next = "/"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}
