//go:build e2e

package handlers_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserNoJavaScriptOpponent: a player with JavaScript off plays a
// person. While the page waits for the opponent's move it reloads itself
// (a meta refresh inside noscript in the head), so it shows each move of
// the opponent without a manual reload, and the move typed next is made
// in that position; on the player's own turn the page stands still. The
// opponent's page, with JavaScript, has no refresh.
func TestBrowserNoJavaScriptOpponent(t *testing.T) {
	srv := startServer(t)
	js, nojs := newBrowser(t, "alice"), newBrowser(t, "nojs", chromedp.Flag("blink-settings", "scriptEnabled=false"))
	signUp(js, srv, "alice")
	signUp(nojs, srv, "nojs")
	white, _ := startPrivateGame(t, srv, js, nojs, "5+0")
	if got := eval[string](nojs, `typeof window.htmx`); got != "undefined" {
		t.Fatalf("htmx is %s on the page without JavaScript", got)
	}
	refresh := `document.querySelector('head noscript meta[http-equiv="refresh"]')`
	// With scripts on, noscript's content is text, not a meta element.
	if eval[bool](js, `document.querySelector('meta[http-equiv="refresh"]') !== null`) {
		t.Error("the page with JavaScript has a meta refresh")
	}
	moves := []struct{ uci, san string }{{"e2e4", "e4"}, {"e7e5", "e5"}, {"g1f3", "Nf3"}, {"b8c6", "Nc6"}, {"f1c4", "Bc4"}}
	for ply, mv := range moves {
		atPly := fmt.Sprintf(`document.querySelector('[data-testid="game-panel"]').dataset.ply == "%d"`, ply)
		if mover := ply%2 == 0 == (white == js); mover {
			waitMyTurn(js, ply)
			// The other page waits, and says it will reload.
			if !eval[bool](nojs, refresh+` !== null`) {
				t.Errorf("ply %d: the page without JavaScript waits for the opponent without a meta refresh", ply)
			}
			clickMove(js, mv.uci[:2], mv.uci[2:4])
			waitPly(js, ply+1)
			continue
		}
		// No navigation by the test: the page reloads itself until the
		// opponent's move is there.
		waitFor(nojs, 20*time.Second, atPly)
		if eval[bool](nojs, refresh+` !== null`) {
			t.Errorf("ply %d: the page reloads itself on the player's own move", ply)
		}
		nojs.do(20*time.Second,
			chromedp.WaitVisible(`[data-testid="move-input"]`),
			chromedp.SendKeys(`[data-testid="move-input"]`, mv.san),
			chromedp.Click(`[data-testid="move-submit"]`),
		)
		waitFor(nojs, 20*time.Second, fmt.Sprintf(`document.querySelector('[data-testid="game-panel"]').dataset.ply == "%d"`, ply+1))
		if msg := eval[string](nojs, `((document.querySelector('[data-testid="move-error"]') || {}).textContent || "").trim()`); msg != "" {
			t.Errorf("ply %d: typed %s refused: %s", ply, mv.san, msg)
		}
		nojs.screenshot(fmt.Sprintf("ply%d", ply+1))
	}
	waitPly(js, len(moves))
}
