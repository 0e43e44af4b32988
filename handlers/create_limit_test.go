package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestWorkFloodsRefused: the requests that create work are limited per
// user, with 429, a Retry-After and a message in the page's language,
// and a refused one changes nothing: new private and practice games (one
// limit for both, and for rematches and queues), joining a queue, and draw
// offers and answers (the move limit, since they take the game's writer).
func TestWorkFloodsRefused(t *testing.T) {
	e := newStackEnvLimits(t, RateLimit{Every: time.Hour, Burst: 2}, RateLimit{Every: time.Hour, Burst: 2})
	ayse, bora := e.player(t, "ayse"), e.player(t, "bora")
	games := func() int { return e.count(t, "games") }
	refused := func(what string, resp *http.Response, wantText string) {
		t.Helper()
		body := readBody(t, resp)
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, wantText) {
			t.Errorf("%s beyond the limit: %d, Retry-After %q: %.300s", what, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
	}
	en, tr := text(t, "en", "error.too_many_attempts"), text(t, "tr", "error.too_many_attempts")
	// The texts carry the seconds to wait; what comes before them says it.
	en, tr = en[:strings.Index(en, "try")], tr[:strings.Index(tr, "Lütfen")]

	private := url.Values{"control": {"3+0"}}
	for i := range 2 {
		if resp := e.do(t, request{method: http.MethodPost, target: "/games/private", form: private, cookies: ayse.cookies()}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("private game %d: %d", i, resp.StatusCode)
		}
	}
	before := games()
	refused("a private game", e.do(t, request{method: http.MethodPost, target: "/games/private", form: private, cookies: ayse.cookies()}), en)
	refused("a practice game, in Turkish", e.do(t, request{method: http.MethodPost, target: "/games/practice?lang=tr",
		form: url.Values{"level": {"easy"}, "control": {"3+0"}}, cookies: ayse.cookies()}), tr)
	if after := games(); after != before {
		t.Errorf("refused requests made %d games", after-before)
	}

	// Joining a queue: the limit is per user, so bora has his own.
	join := url.Values{"control": {"3+0"}}
	for i := range 2 {
		if resp := e.do(t, request{method: http.MethodPost, target: "/lobby/join", form: join, cookies: bora.cookies()}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("join %d: %d", i, resp.StatusCode)
		}
		if resp := e.do(t, request{method: http.MethodPost, target: "/lobby/cancel", cookies: bora.cookies()}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("cancel %d: %d", i, resp.StatusCode)
		}
	}
	refused("joining a queue", e.do(t, request{method: http.MethodPost, target: "/lobby/join", form: join, cookies: bora.cookies()}), en)
	resp := e.do(t, request{method: http.MethodGet, target: "/lobby/wait", cookies: bora.cookies()})
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/lobby") || strings.HasPrefix(resp.Header.Get("Location"), "/lobby/wait") {
		t.Errorf("after the refused join bora waits: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}

	// Draw offers: two attempts (refused by the rules before both have
	// moved), then the limit.
	id, white, _ := e.privateGame(t, e.player(t, "cemil"), e.player(t, "deniz"))
	draw := fmt.Sprintf("/games/%d/draw", id)
	for range 2 {
		e.do(t, request{method: http.MethodPost, target: draw, cookies: white.cookies()})
	}
	before2 := e.state(t, id)
	refused("a draw offer", e.do(t, request{method: http.MethodPost, target: draw, cookies: white.cookies()}), en)
	refused("a draw answer", e.do(t, request{method: http.MethodPost, target: draw + "/answer", form: url.Values{"accept": {"yes"}}, cookies: white.cookies()}), en)
	if after := e.state(t, id); after != before2 {
		t.Errorf("refused offers changed the game: %+v, was %+v", after, before2)
	}
}

// TestInviteJoinFloodRefused: accepting invitations counts against the
// creation limit, wrong tokens too (a search for tokens meets it), with
// 429, a Retry-After and a message in the page's language; a refused
// acceptance leaves the game waiting, and another user still joins it.
func TestInviteJoinFloodRefused(t *testing.T) {
	e := newStackEnvLimits(t, looseLimit, RateLimit{Every: time.Hour, Burst: 2})
	ayse, bora, cemil := e.player(t, "ayse"), e.player(t, "bora"), e.player(t, "cemil")
	id, token, err := e.games.CreatePrivateGame(context.Background(), ayse.ID, clock.Control{Initial: 3 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for _, guess := range []string{"guess1", "guess2"} {
		if resp := e.do(t, request{method: http.MethodPost, target: "/invite/" + guess, cookies: bora.cookies()}); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("a wrong token: %d, want 404", resp.StatusCode)
		}
	}
	for _, c := range []struct{ lang, query, cut string }{{"en", "", "try"}, {"tr", "?lang=tr", "Lütfen"}} {
		want := text(t, c.lang, "error.too_many_attempts")
		want = want[:strings.Index(want, c.cut)] // what comes before the seconds to wait
		resp := e.do(t, request{method: http.MethodPost, target: "/invite/" + token + c.query, cookies: bora.cookies()})
		body := readBody(t, resp)
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, want) {
			t.Errorf("the right token beyond the limit (%s): %d, Retry-After %q: %.300s", c.lang, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
	}
	snap := e.snapshot(t, id)
	if isSeated(snap, bora.ID) || snap.Status != game.Waiting {
		t.Fatalf("after the refused acceptances bora is seated (%v), the game is %v", isSeated(snap, bora.ID), snap.Status)
	}
	resp := e.do(t, request{method: http.MethodPost, target: "/invite/" + token, cookies: cemil.cookies()})
	if want := fmt.Sprintf("/games/%d", id); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != want {
		t.Errorf("cemil accepts: %d to %q, want 303 to %s", resp.StatusCode, resp.Header.Get("Location"), want)
	}
	if snap = e.snapshot(t, id); !isSeated(snap, cemil.ID) {
		t.Error("cemil, within his limit, is not seated")
	}
}

// isSeated reports whether user plays game snap.
func isSeated(snap play.Snapshot, user int64) bool {
	_, seated := snap.SideOf(user)
	return seated
}
