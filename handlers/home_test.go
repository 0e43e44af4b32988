package handlers

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/clock"
)

// homeDoc GETs target as p (a guest when p has no cookie) in lang and
// parses the page.
func (e *stackEnv) homeDoc(t *testing.T, target string, p player, lang string) *goquery.Document {
	t.Helper()
	if lang != "en" {
		sep := "?"
		if strings.Contains(target, "?") {
			sep = "&"
		}
		target += sep + "lang=" + lang
	}
	req := httptest.NewRequest(http.MethodGet, target, nil)
	if p.cookie != nil {
		req.AddCookie(p.cookie)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s = %d", target, rec.Code)
	}
	doc, err := goquery.NewDocumentFromReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestHomeMember: a member's home page has the Quick Play grid (a POST to
// the queue per control of SPEC section 4), practice at each level in one
// click, play a friend, the five lounges with whether they may sit, and
// the counts; no game in progress, so no link to one.
func TestHomeMember(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	ayse := e.player(t, "ayse")
	for _, lang := range []string{"en", "tr"} {
		doc := e.homeDoc(t, "/", ayse, lang)
		if n := doc.Find("h1").Length(); n != 1 {
			t.Errorf("%s: %d h1, want 1", lang, n)
		}
		for _, c := range clock.Offered {
			b := doc.Find(`button[data-testid="quick-` + c.String() + `"]`)
			form := b.Closest("form")
			action := pathOf(form.AttrOr("action", ""))
			method, _ := form.Attr("method")
			control, _ := form.Find(`input[name="control"]`).Attr("value")
			if b.Length() != 1 || action != "/lobby/join" || method != "post" || control != c.String() {
				t.Errorf("%s: Quick Play %s: %d buttons, form %s %q with control %q", lang, c, b.Length(), method, action, control)
			}
		}
		for _, level := range []string{"easy", "medium", "hard"} {
			b := doc.Find(`button[data-testid="home-practice-` + level + `"]`)
			action := pathOf(b.Closest("form").AttrOr("action", ""))
			if v, _ := b.Attr("value"); b.Length() != 1 || v != level || action != "/games/practice" {
				t.Errorf("%s: practice %s: %d buttons, value %q, action %q", lang, level, b.Length(), v, action)
			}
		}
		if v, _ := doc.Find(`[data-testid="home-practice-control"] option[selected]`).Attr("value"); v != "5+0" {
			t.Errorf("%s: practice control defaults to %q, want 5+0", lang, v)
		}
		if href := pathOf(doc.Find(`[data-testid="home-friend"]`).AttrOr("href", "")); href != "/play" {
			t.Errorf("%s: play a friend links to %q", lang, href)
		}
		if n := doc.Find(`[data-testid^="home-lounge-"]`).Length(); n != 5 {
			t.Errorf("%s: %d lounges, want 5", lang, n)
		}
		// A new member's grant lets them sit at the cheapest lounge, not the dearest.
		for slug, open := range map[string]string{"kahvehane": "true", "divan": "false"} {
			if got, _ := doc.Find(`[data-testid="home-lounge-` + slug + `"]`).Attr("data-open"); got != open {
				t.Errorf("%s: lounge %s open = %q, want %s", lang, slug, got, open)
			}
		}
		if doc.Find(`[data-testid="home-current"]`).Length() != 0 || doc.Find(`[data-testid="nav-game"]`).Length() != 0 {
			t.Errorf("%s: a link to a game in progress without one", lang)
		}
		want := map[string]string{"en": "0 games in play", "tr": "0 oyun sürüyor"}[lang]
		if got := strings.TrimSpace(doc.Find(`[data-testid="home-games"]`).Text()); got != want {
			t.Errorf("%s: games in play %q", lang, got)
		}
		if n := doc.Find(`[data-testid="nav-play"], [data-testid="nav-lobby"], [data-testid="nav-leaderboard"], [data-testid="nav-tournaments"], [data-testid="nav-rules"]`).Length(); n != 5 {
			t.Errorf("%s: %d of the 5 sections in the header", lang, n)
		}
	}
}

// TestHomeMemberPlaying: a member with a game in progress finds it at the
// top of the home page and in the header of every other page, but not in
// the header of the game's own page; the counts include it.
func TestHomeMemberPlaying(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	a, b := e.player(t, "ayse"), e.player(t, "bora")
	id, _, _ := e.privateGame(t, a, b)
	path := fmt.Sprintf("/games/%d", id)
	doc := e.homeDoc(t, "/", a, "en")
	if href, _ := doc.Find(`[data-testid="home-current-link"]`).Attr("href"); href != path {
		t.Errorf("home: game in progress links to %q, want %s", href, path)
	}
	if got := strings.TrimSpace(doc.Find(`[data-testid="home-players"]`).Text()); got != "2 players in games" {
		t.Errorf("home: players %q", got)
	}
	if got := strings.TrimSpace(doc.Find(`[data-testid="home-games"]`).Text()); got != "1 game in play" {
		t.Errorf("home: games %q", got)
	}
	// Once the other member has opened a page too, both are online.
	e.homeDoc(t, "/rules", b, "en")
	doc = e.homeDoc(t, "/", a, "en")
	if got := strings.TrimSpace(doc.Find(`[data-testid="home-online"]`).Text()); got != "2 players online" {
		t.Errorf("home: online %q", got)
	}
	for _, target := range []string{"/", "/rules", "/lobby", "/profile"} {
		doc := e.homeDoc(t, target, b, "tr")
		if href := pathOf(doc.Find(`[data-testid="nav-game"]`).AttrOr("href", "")); href != path {
			t.Errorf("%s: header's game link %q, want %s", target, href, path)
		}
	}
	if n := e.homeDoc(t, path, a, "en").Find(`[data-testid="nav-game"]`).Length(); n != 0 {
		t.Errorf("the game's own page links to itself in the header")
	}
}

// TestHomeGuest: a guest reads what Satranç is, and each control of the
// Quick Play grid leads to sign up and on to the page that joins it.
func TestHomeGuest(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	for _, lang := range []string{"en", "tr"} {
		doc := e.homeDoc(t, "/", player{}, lang)
		if n := doc.Find("h1").Length(); n != 1 {
			t.Errorf("%s: %d h1, want 1", lang, n)
		}
		if doc.Find(`[data-testid="home-intro"] p`).Length() != 2 {
			t.Errorf("%s: the intro is not two lines", lang)
		}
		if doc.Find(`[data-testid="home-practice"]`).Length() != 0 || doc.Find(`[data-testid="home-lounges"]`).Length() != 0 {
			t.Errorf("%s: a guest is offered what only members can do", lang)
		}
		for _, c := range clock.Offered {
			href, _ := doc.Find(`a[data-testid="quick-` + c.String() + `"]`).Attr("href")
			u, err := url.Parse(href)
			if err != nil || u.Path != "/signup" || u.Query().Get("next") != "/play/quick/"+c.String()+"?go=1" {
				t.Errorf("%s: guest's %s leads to %q", lang, c, href)
			}
		}
		if href, _ := doc.Find(`[data-testid="home-login"]`).Attr("href"); href != "/login" {
			t.Errorf("%s: log in links to %q", lang, href)
		}
	}
}

// TestQuickPlayPage: /play/quick/{control} is a one-click form joining
// that queue (submitted by its script with ?go=1); an unknown control is
// not found, and a guest is sent to log in.
func TestQuickPlayPage(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	a := e.player(t, "ayse")
	doc := e.homeDoc(t, "/play/quick/3+0?go=1", a, "en")
	form := doc.Find(`form[data-testid="quick-form"]`)
	action, _ := form.Attr("action")
	control, _ := form.Find(`input[name="control"]`).Attr("value")
	_, auto := form.Attr("data-autosubmit")
	if action != "/lobby/join" || control != "3+0" || !auto {
		t.Errorf("quick page form: action %q, control %q, autosubmit %v", action, control, auto)
	}
	if _, auto := e.homeDoc(t, "/play/quick/3+0", a, "en").Find(`form[data-testid="quick-form"]`).Attr("data-autosubmit"); auto {
		t.Errorf("quick page without ?go=1 submits itself")
	}
	if resp := e.get("/play/quick/4+0", a); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /play/quick/4+0 = %d, want 404", resp.StatusCode)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/play/quick/3+0?go=1", nil))
	if to := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || !strings.HasPrefix(to, "/login?next=") {
		t.Errorf("guest: %d to %q, want log-in", rec.Code, to)
	}
}

// pathOf is href without its query (the ?lang= a page passes on).
func pathOf(href string) string {
	p, _, _ := strings.Cut(href, "?")
	return p
}
