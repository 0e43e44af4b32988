package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/account"
)

// TestSettingsSound: the member's choice of the game sounds, from the
// settings page (a plain form that comes back to the page) and from the
// game page's switch (htmx, answered with the switch itself), is kept
// with the account on real SQLite.
func TestSettingsSound(t *testing.T) {
	ctx := context.Background()
	e := newSettingsEnv(t)

	resp := e.do(t, request{method: http.MethodPost, target: "/settings/sound", form: url.Values{"sound": {"off"}}})
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
		t.Errorf("guest POST /settings/sound = %d to %q, want 303 to the log-in", resp.StatusCode, resp.Header.Get("Location"))
	}

	c := e.signUp(t, "ayse")
	as := []*http.Cookie{c}
	soundOff := func() bool {
		t.Helper()
		u, err := e.store.UserByName(ctx, "ayse")
		if err != nil {
			t.Fatal(err)
		}
		return u.SoundOff
	}
	checked := func() (on, off bool) {
		t.Helper()
		resp := e.do(t, request{target: "/settings", cookies: as})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /settings = %d", resp.StatusCode)
		}
		doc := parse(t, resp)
		_, on = testid(doc, "sound-on").Attr("checked")
		_, off = testid(doc, "sound-off").Attr("checked")
		return on, off
	}
	if on, off := checked(); !on || off {
		t.Errorf("a new member's settings: sound on %v, off %v; want on", on, off)
	}

	cases := []struct {
		name     string
		form     url.Values
		htmx     bool
		status   int
		location string // of a redirect
		wantOff  bool
	}{
		{"settings page: off", url.Values{"sound": {"off"}, "next": {"/settings?saved=1"}}, false, http.StatusSeeOther, "/settings?saved=1", true},
		{"settings page: on", url.Values{"sound": {"on"}, "next": {"/settings?saved=1"}}, false, http.StatusSeeOther, "/settings?saved=1", false},
		{"game page without JavaScript", url.Values{"sound": {"off"}, "next": {"/games/7"}}, false, http.StatusSeeOther, "/games/7", true},
		{"next elsewhere", url.Values{"sound": {"on"}, "next": {"//example.org/"}}, false, http.StatusSeeOther, "/settings?saved=1", false},
		{"game page switch", url.Values{"sound": {"off"}}, true, http.StatusOK, "", true},
		{"unknown value", url.Values{"sound": {"loud"}}, false, http.StatusBadRequest, "", true},
		{"no value", url.Values{}, true, http.StatusBadRequest, "", true},
	}
	for _, tc := range cases {
		rq := request{method: http.MethodPost, target: "/settings/sound", form: tc.form, cookies: as}
		if tc.htmx {
			rq.header = map[string]string{"HX-Request": "true"}
		}
		resp := e.do(t, rq)
		if resp.StatusCode != tc.status || resp.Header.Get("Location") != tc.location {
			t.Errorf("%s: POST /settings/sound = %d to %q, want %d to %q", tc.name, resp.StatusCode, resp.Header.Get("Location"), tc.status, tc.location)
		}
		if got := soundOff(); got != tc.wantOff {
			t.Errorf("%s: SoundOff = %v, want %v", tc.name, got, tc.wantOff)
		}
		if tc.htmx && tc.status == http.StatusOK {
			sw := testid(parse(t, resp), "sound-switch")
			if sw.AttrOr("data-sound", "") != "off" || sw.Find(`input[name="sound"]`).AttrOr("value", "") != "on" ||
				strings.TrimSpace(sw.Find(`[data-testid="sound-toggle"]`).Text()) != text(t, "en", "game.sound.turn_on") {
				html, _ := goquery.OuterHtml(sw)
				t.Errorf("%s: the switch answered is %s, want it off, offering to turn the sounds on", tc.name, html)
			}
		}
	}
	if on, off := checked(); on || !off {
		t.Errorf("after turning the sounds off: settings show on %v, off %v", on, off)
	}
}

// TestGamePageSignals: the game page carries what sounds.js and
// attention.js need: the member's sound switch in its saved state, and,
// for a player, the "your move" title in the page language and icon.
func TestGamePageSignals(t *testing.T) {
	now := time.Now()
	e := newGameEnv(t, testSnapshot(t, now, "e2e4", "d7d5", "e4d5"))
	page := func(as *account.User, lang string) *http.Response {
		t.Helper()
		resp := e.do(t, gameReq{target: "/games/7", as: as, lang: lang})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /games/7 = %d", resp.StatusCode)
		}
		return resp
	}
	scripts := func(body string) (sounds, attention bool) {
		return strings.Contains(body, `src="/static/js/sounds.js?v=`), strings.Contains(body, `src="/static/js/attention.js?v=`)
	}

	cases := []struct {
		name          string
		as            *account.User
		lang          string
		sound         string // the switch's data-sound; "" for none
		attention     bool
		title         string
		lastMove      string
		toggleMessage string
	}{
		{"player", &ayse, "", "on", true, "Your move · Satranç", "capture", "game.sound.turn_off"},
		{"player in Turkish", &bora, "tr", "on", true, "Sıra sizde · Satranç", "capture", "game.sound.turn_off"},
		{"member watching", &cemil, "", "on", false, "Your move · Satranç", "capture", "game.sound.turn_off"},
	}
	for _, tc := range cases {
		body := readBody(t, page(tc.as, tc.lang))
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		sig := testid(doc, "game-signals")
		if sig.Length() != 1 {
			t.Fatalf("%s: %d game-signals elements", tc.name, sig.Length())
		}
		if got := sig.AttrOr("data-attention-title", ""); got != tc.title {
			t.Errorf("%s: data-attention-title = %q, want %q", tc.name, got, tc.title)
		}
		if got := sig.AttrOr("data-attention-icon", ""); !strings.HasPrefix(got, "/static/img/favicon-move.svg?v=") {
			t.Errorf("%s: data-attention-icon = %q", tc.name, got)
		}
		sw := testid(doc, "sound-switch")
		if got := sw.AttrOr("data-sound", ""); got != tc.sound {
			t.Errorf("%s: sound switch data-sound = %q, want %q", tc.name, got, tc.sound)
		}
		if tc.toggleMessage != "" {
			lang := tc.lang
			if lang == "" {
				lang = "en"
			}
			if got := strings.TrimSpace(testid(doc, "sound-toggle").Text()); got != text(t, lang, tc.toggleMessage) {
				t.Errorf("%s: sound toggle says %q", tc.name, got)
			}
		}
		if sounds, attention := scripts(body); !sounds || attention != tc.attention {
			t.Errorf("%s: sounds.js %v, attention.js %v; want true, %v", tc.name, sounds, attention, tc.attention)
		}
		if got := testid(doc, "game-panel").AttrOr("data-last-move", "?"); got != tc.lastMove {
			t.Errorf("%s: data-last-move = %q, want %q", tc.name, got, tc.lastMove)
		}
	}

	// Turned off on the game page's switch, the sounds stay off on the
	// next page.
	resp := e.do(t, gameReq{method: http.MethodPost, target: "/settings/sound", as: &ayse, form: url.Values{"sound": {"off"}}, htmx: true})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /settings/sound = %d", resp.StatusCode)
	}
	doc := parse(t, page(&ayse, ""))
	if got := testid(doc, "sound-switch").AttrOr("data-sound", ""); got != "off" {
		t.Errorf("after turning the sounds off: data-sound = %q, want off", got)
	}
}
