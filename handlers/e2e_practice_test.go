//go:build e2e

package handlers_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPracticeGame plays a practice game against Easy: the bot
// answers every move; the human resigns and the page shows the result.
func TestBrowserPracticeGame(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "ayse")
	signUp(b, srv, "ayse")
	startPractice(b, srv, "easy", "5+0", "white")

	plan := [][2]string{{"e2", "e4"}, {"g1", "f3"}, {"f1", "c4"}, {"b1", "c3"}}
	for i, mv := range plan {
		ply := 2 * i
		waitMyTurn(b, ply)
		if i%2 == 0 {
			dragMove(b, mv[0], mv[1])
		} else {
			clickMove(b, mv[0], mv[1])
		}
		waitPly(b, ply+2) // the bot has answered
	}
	if got := moves(b); len(got) != 8 {
		t.Fatalf("move list after 4 moves each: %q", got)
	}

	// The keyboard way: an illegal typed move is refused with a message and
	// the text kept; a legal one is played with the current ply. h3, not
	// d3: the computer's replies vary, and after ...Bb4 and ...Bxc3 the d
	// pawn is pinned.
	waitMyTurn(b, 8)
	b.do(10*time.Second,
		chromedp.SendKeys(`[data-testid="move-input"]`, "Qh8"),
		chromedp.Click(`[data-testid="move-submit"]`),
	)
	waitFor(b, 10*time.Second, `document.querySelector('[data-testid="move-error"]').textContent.trim() != ""`)
	if got := eval[string](b, `document.querySelector('[data-testid="move-input"]').value`); got != "Qh8" {
		t.Errorf("typed text after a refused move = %q, want it kept", got)
	}
	eval[string](b, `document.querySelector('[data-testid="move-input"]').value = ""`)
	b.do(10*time.Second,
		chromedp.SendKeys(`[data-testid="move-input"]`, "h3"),
		chromedp.Click(`[data-testid="move-submit"]`),
	)
	waitPly(b, 10)
	if got := moves(b); got[8] != "h3" {
		t.Errorf("typed move shown as %q, want h3", got[8])
	}
	b.do(10*time.Second,
		chromedp.Click(`[data-testid="resign-open"]`),
		chromedp.Click(`[data-testid="resign-confirm"]`),
	)
	waitFor(b, 10*time.Second, `document.querySelector('[data-testid="game-panel"]').dataset.status == "finished"`)
	if got := eval[string](b, `document.querySelector('[data-testid="status"]').dataset.reason`); got != "resignation" {
		t.Errorf("reason = %q, want resignation; status line %q", got, status(b))
	}
	if got := eval[string](b, `document.querySelector('[data-testid="status"]').dataset.result`); got != "0-1" {
		t.Errorf("result = %q, want 0-1", got)
	}
	b.screenshot("finished")
}
