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
