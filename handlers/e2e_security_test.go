//go:build e2e

package handlers_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// cspWatcher records every securitypolicyviolation event of every page the
// tab opens, in the tab's sessionStorage, so that the record survives
// navigation. The browser runs it before any of the page's own scripts.
const cspWatcher = `document.addEventListener("securitypolicyviolation", function (e) {
  var v = JSON.parse(sessionStorage.getItem("csp-violations") || "[]");
  v.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber + " on " + location.pathname);
  sessionStorage.setItem("csp-violations", JSON.stringify(v));
});`

// watchCSP starts recording b's Content-Security-Policy violations; call
// it before b opens any page.
func watchCSP(b *browser) {
	b.t.Helper()
	runOnEveryPage(b, cspWatcher)
}

// cspViolations returns the violations watchCSP recorded on b's pages.
func cspViolations(b *browser) []string {
	b.t.Helper()
	var v []string
	if err := json.Unmarshal([]byte(eval[string](b, `sessionStorage.getItem("csp-violations") || "[]"`)), &v); err != nil {
		b.t.Fatalf("%s: %v", b.name, err)
	}
	return v
}

// TestBrowserCSP plays through the pages under the Content-Security-Policy
// (sign-up, a private game with board and typed moves, a refused move, the
// chat, the rules' try-it boards, the leaderboard) and checks that the
// browser blocked nothing. A deliberate inline style at the end shows that
// the watch would see a violation.
func TestBrowserCSP(t *testing.T) {
	srv := startServer(t)
	a, b := newBrowser(t, "alice"), newBrowser(t, "bob")
	watchCSP(a)
	watchCSP(b)
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	white, black := startPrivateGame(t, srv, a, b, "5+0")
	playMoves(t, white, black, 0, "e2e4", "e7e5", "g1f3")

	// A typed move the server refuses: htmx swaps the notice in.
	black.do(10*time.Second,
		chromedp.SendKeys(`[data-testid="move-input"]`, "Ke3"),
		chromedp.Click(`[data-testid="move-submit"]`),
	)
	waitFor(black, 10*time.Second, `document.querySelector('[data-testid="move-error"]').textContent.trim() != ""`)
	sendChat(white, `<b>bold</b> <script>alert(1)</script>`)
	waitFor(black, 10*time.Second, `document.querySelectorAll('[data-testid="chat-text"]').length == 1`)

	p := openRules(t, white, srv.URL, "en")
	p.drag("castling", "e1", "g1")
	p.waitState("castling", "solved")
	white.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/leaderboard"),
		chromedp.WaitVisible(`[data-testid="main"]`),
	)
	for _, br := range []*browser{white, black} {
		if v := cspViolations(br); len(v) > 0 {
			t.Errorf("%s: the browser blocked %d things: %q", br.name, len(v), v)
		}
	}

	// An inline style the policy must block, seen by the watch.
	eval[bool](black, `(document.head.appendChild(Object.assign(document.createElement("style"), {textContent: "body{color:red}"})), true)`)
	waitFor(black, 10*time.Second, `(sessionStorage.getItem("csp-violations") || "").includes("style-src")`)
}
