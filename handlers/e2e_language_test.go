//go:build e2e

package handlers_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserLanguageSwitchMidGame switches to Turkish during a game: the
// move list changes its letters (N -> A), and a move typed with Turkish
// letters is played.
func TestBrowserLanguageSwitchMidGame(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "deniz")
	signUp(b, srv, "deniz")
	startPractice(b, srv, "easy", "untimed", "white")
	waitMyTurn(b, 0)
	clickMove(b, "g1", "f3")
	waitMyTurn(b, 2)
	if got := moves(b)[0]; got != "Nf3" {
		t.Fatalf("first move in English = %q, want Nf3", got)
	}
	b.do(20*time.Second,
		chromedp.Click(`[data-testid="lang-tr"]`),
		chromedp.WaitVisible(`html[lang="tr"] [data-testid="game-panel"]`),
	)
	waitMyTurn(b, 2)
	if got := moves(b)[0]; got != "Af3" {
		t.Errorf("first move in Turkish = %q, want Af3", got)
	}
	if got := status(b); got != "Hamle sırası sizde." {
		t.Errorf("status in Turkish = %q", got)
	}
	b.do(10*time.Second,
		chromedp.SendKeys(`[data-testid="move-input"]`, "Ac3"),
		chromedp.Click(`[data-testid="move-submit"]`),
	)
	waitPly(b, 4)
	if got := moves(b)[2]; got != "Ac3" {
		t.Errorf("typed Turkish move shown as %q, want Ac3", got)
	}
	b.screenshot("turkish")
}

// TestBrowserLanguageFromURLMidGame opens a game with ?lang=tr as a member
// whose profile says English: the page, the panels the stream sends after
// each move and the htmx answer to a refused typed move all stay Turkish.
func TestBrowserLanguageFromURLMidGame(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "ece")
	signUp(b, srv, "ece") // in English
	startPractice(b, srv, "easy", "untimed", "white")
	b.do(20*time.Second,
		chromedp.Navigate(gameURL(b)+"?lang=tr"),
		chromedp.WaitVisible(`html[lang="tr"] [data-testid="game-panel"]`),
	)
	waitMyTurn(b, 0)
	clickMove(b, "g1", "f3")
	waitMyTurn(b, 2) // the computer's answer came over the stream
	if got := moves(b)[0]; got != "Af3" {
		t.Errorf("first move on the ?lang=tr page = %q, want Af3", got)
	}
	if got := status(b); got != "Hamle sırası sizde." {
		t.Errorf("status after the stream's update = %q, want it in Turkish", got)
	}
	b.do(10*time.Second,
		chromedp.SendKeys(`[data-testid="move-input"]`, "Ke2"), // K is the rook in Turkish
		chromedp.Click(`[data-testid="move-submit"]`),
	)
	waitFor(b, 10*time.Second, `document.querySelector('#move-error') && document.querySelector('#move-error').textContent.includes("kurallara aykırı")`)
	if lang := eval[string](b, `document.documentElement.lang`); lang != "tr" {
		t.Errorf("page language after the refused move = %q", lang)
	}
	b.screenshot("turkish-from-url")
}

// TestBrowserLanguageChangedElsewhere: Bob chooses Turkish somewhere else
// (another tab) while his English game page is open; when his page's
// stream reconnects, it sends the panel in Turkish, and the page reloads
// in Turkish rather than showing a Turkish panel in an English page.
func TestBrowserLanguageChangedElsewhere(t *testing.T) {
	proxy, _, bob, white, black := gameBehindCut(t, "60s")
	playMoves(t, white, black, 0, "g1f3", "g8f6")
	if lang := eval[string](bob, `document.querySelector('[data-testid="game-panel"]').lang`); lang != "en" {
		t.Fatalf("Bob's panel says lang %q, want en", lang)
	}

	// Another tab's language switcher: the profile says Turkish now, and
	// this page's stream goes on in English until it reconnects.
	st, err := chromedp.Run(bob.ctx, chromedp.Evaluate[float64](
		`fetch("/lang", {method: "POST", body: new URLSearchParams({lang: "tr", next: "/"})}).then(r => r.status)`,
		chromedp.EvalAwaitPromise))
	if err != nil || st != 200 {
		t.Fatalf("POST /lang from Bob's page: %v, %v", st, err)
	}
	eval[bool](bob, `window.beforeReload = true`)
	proxy.cut()
	waitFor(bob, 20*time.Second, `!document.querySelector('[data-testid="connection-lost"]').hidden`)
	proxy.restore()
	waitFor(bob, 30*time.Second, `document.documentElement.lang === "tr" && !window.beforeReload`)
	waitFor(bob, 10*time.Second, `document.querySelector('[data-testid="game-panel"]')`)
	if lang := eval[string](bob, `document.querySelector('[data-testid="game-panel"]').lang`); lang != "tr" {
		t.Errorf("after the reload Bob's panel says lang %q, want tr", lang)
	}
	if got := moves(bob); len(got) != 2 || got[0] != "Af3" {
		t.Errorf("Bob's moves after the reload: %q, want Af3 first", got)
	}
	bob.screenshot("language-changed-elsewhere")
}
