package handlers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestWrongMethodAndUnknownPath: a route asked with a method it does not
// take is answered 405 with the Allow header and the error page in the
// page's language, through htmx too (which swaps no error); an unknown
// path, whatever the method, 404 the same way, and so do the
// administration pages to anyone but an administrator.
func TestWrongMethodAndUnknownPath(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	ayse, bora := e.player(t, "ayse"), e.player(t, "bora")
	id, _, _ := e.privateGame(t, ayse, bora)
	game := fmt.Sprintf("/games/%d", id)
	htmx := map[string]string{"HX-Request": "true"}
	tests := []struct {
		name, method, target string
		who                  player
		header               map[string]string
		status               int
		allow, message, lang string
	}{
		{name: "POST a page", method: http.MethodPost, target: "/", status: http.StatusMethodNotAllowed, allow: "GET, HEAD", message: "error.method_not_allowed", lang: "en"},
		{name: "GET a form's action, in Turkish", method: http.MethodGet, target: "/logout?lang=tr", status: http.StatusMethodNotAllowed, allow: "POST", message: "error.method_not_allowed", lang: "tr"},
		{name: "HEAD a page", method: http.MethodHead, target: "/login", status: http.StatusOK},
		{name: "HEAD a form's action", method: http.MethodHead, target: "/logout", status: http.StatusMethodNotAllowed, allow: "POST"},
		{name: "PUT a page", method: http.MethodPut, target: "/rules?lang=tr", status: http.StatusMethodNotAllowed, allow: "GET, HEAD", message: "error.method_not_allowed", lang: "tr"},
		{name: "POST a game's page", method: http.MethodPost, target: game, who: ayse, status: http.StatusMethodNotAllowed, allow: "GET, HEAD", message: "error.method_not_allowed", lang: "en"},
		{name: "GET a game's moves, in Turkish", method: http.MethodGet, target: game + "/moves?lang=tr", who: ayse, status: http.StatusMethodNotAllowed, allow: "POST", message: "error.method_not_allowed", lang: "tr"},
		{name: "DELETE a game's moves through htmx", method: http.MethodDelete, target: game + "/moves", who: ayse, header: htmx, status: http.StatusMethodNotAllowed, allow: "POST", message: "error.method_not_allowed", lang: "en"},
		{name: "GET an administration form's action", method: http.MethodGet, target: "/admin/users/bora/vip", who: ayse, status: http.StatusMethodNotAllowed, allow: "POST", message: "error.method_not_allowed", lang: "en"},
		// To anyone else the administration pages do not exist, whatever the method.
		{name: "GET an administration form's action as a member", method: http.MethodGet, target: "/admin/users/bora/vip", who: bora, status: http.StatusNotFound, message: "error.not_found", lang: "en"},
		{name: "PUT the administration page as a guest", method: http.MethodPut, target: "/admin", status: http.StatusNotFound, message: "error.not_found", lang: "en"},
		{name: "an unknown method", method: "BREW", target: "/?lang=tr", status: http.StatusMethodNotAllowed, allow: "GET, HEAD", message: "error.method_not_allowed", lang: "tr"},
		{name: "an unknown page", method: http.MethodGet, target: "/no/such/page", status: http.StatusNotFound, message: "error.not_found", lang: "en"},
		{name: "an unknown page, in Turkish", method: http.MethodGet, target: "/no/such/page?lang=tr", status: http.StatusNotFound, message: "error.not_found", lang: "tr"},
		{name: "an unknown page through htmx", method: http.MethodGet, target: "/no/such/page?lang=tr", header: htmx, status: http.StatusNotFound, message: "error.not_found", lang: "tr"},
		{name: "POST an unknown page", method: http.MethodPost, target: "/no/such/page", status: http.StatusNotFound, message: "error.not_found", lang: "en"},
		{name: "an unknown method at an unknown page", method: "BREW", target: "/no/such/page?lang=tr", status: http.StatusNotFound, message: "error.not_found", lang: "tr"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var cookies []*http.Cookie
			if tc.who.cookie != nil {
				cookies = tc.who.cookies()
			}
			resp := e.do(t, request{method: tc.method, target: tc.target, cookies: cookies, header: tc.header})
			if resp.StatusCode != tc.status || resp.Header.Get("Allow") != tc.allow {
				t.Fatalf("%d, Allow %q; want %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"), tc.status, tc.allow)
			}
			if tc.message == "" {
				return
			}
			doc := parse(t, resp)
			shown := testid(doc, "error")
			if got := shown.AttrOr("data-message", ""); got != tc.message {
				t.Errorf("message %q, want %q", got, tc.message)
			}
			if want := text(t, tc.lang, tc.message); !strings.Contains(shown.Text(), want) {
				t.Errorf("the error reads %q, want %q", strings.TrimSpace(shown.Text()), want)
			}
			if got := doc.Find("html").AttrOr("lang", ""); got != tc.lang {
				t.Errorf("<html lang=%q>, want %q", got, tc.lang)
			}
		})
	}
	if after := e.state(t, id); after.Ply != 0 || after.StoredMoves != 0 {
		t.Errorf("the refused requests changed the game: %+v", after)
	}
}

// TestServerDeadlineAnswered503: a request whose work passed the server's
// own deadline (a move whose store write waited too long under load) is
// answered 503 with Retry-After, which tells a client to try again, and
// the page says the service is busy; a client gone away is not.
func TestServerDeadlineAnswered503(t *testing.T) {
	late := fmt.Errorf("play: move: store: %w", context.DeadlineExceeded)
	rec := httptest.NewRecorder()
	h := &Handler{log: slog.New(slog.DiscardHandler)}
	h.fail(rec, httptest.NewRequest(http.MethodPost, "/games/1/moves", nil), late)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "1" {
		t.Errorf("a passed deadline: %d, Retry-After %q; want 503 and 1", rec.Code, rec.Header().Get("Retry-After"))
	}
	if resp := responseFor(late); resp.msg.ID != "error.unavailable" {
		t.Errorf("a passed deadline says %s, want error.unavailable", resp.msg.ID)
	}
	if resp := responseFor(fmt.Errorf("x: %w", context.Canceled)); resp.status == http.StatusServiceUnavailable {
		t.Error("a client gone away answered 503")
	}
}

// TestClientGoneNotLogged: a request whose client went away while its work
// was under way (the store's transaction rolled back with its context) is
// logged at debug level, not as a failure, and no error page is rendered
// for nobody; a failure with the client still there is logged and gets
// its page.
func TestClientGoneNotLogged(t *testing.T) {
	var logs strings.Builder
	h := &Handler{log: slog.New(slog.NewTextHandler(&logs, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gone := fmt.Errorf("play: create game: store: create game: %w", context.Canceled)
	rec := httptest.NewRecorder()
	h.fail(rec, httptest.NewRequestWithContext(ctx, http.MethodPost, "/games/private", nil), gone)
	if logs.Len() != 0 || rec.Body.Len() != 0 {
		t.Errorf("a client gone away: log %q, body of %d bytes; want neither", logs.String(), rec.Body.Len())
	}

	broken := errors.New("store: disk I/O error")
	rec = httptest.NewRecorder()
	h.fail(rec, httptest.NewRequest(http.MethodPost, "/games/private", nil), broken)
	if !strings.Contains(logs.String(), "level=ERROR") || rec.Code != http.StatusInternalServerError || rec.Body.Len() == 0 {
		t.Errorf("a failure: log %q, status %d, body of %d bytes; want an error logged and a 500 page", logs.String(), rec.Code, rec.Body.Len())
	}
}
