//go:build e2e

package handlers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserReportAndVoid: ali signs up first, so he is the
// administrator. In a private game veli reports him with the button at the
// table, then resigns; ali finds the report on /admin/reports, opens the
// game and voids its result, with the confirmation; veli, a member, gets
// "page not found" at /admin.
func TestBrowserReportAndVoid(t *testing.T) {
	srv := startServer(t)
	ali, veli := newBrowser(t, "ali"), newBrowser(t, "veli")
	signUp(ali, srv, "ali")
	signUp(veli, srv, "veli")
	white, black := startPrivateGame(t, srv, ali, veli, "5+0")
	playMoves(t, white, black, 0, "e2e4", "e7e5", "g1f3", "b8c6")
	game := gameURL(veli)

	const reason = `moves at <b>engine</b> speed`
	veli.do(20*time.Second,
		chromedp.Click(`[data-testid="report-open"]`),
		chromedp.WaitVisible(`[data-testid="report-reason"]`),
		chromedp.SendKeys(`[data-testid="report-reason"]`, reason),
		chromedp.Click(`[data-testid="report-submit"]`),
		chromedp.WaitVisible(`[data-testid="report-sent"]`),
	)
	waitFor(veli, 20*time.Second, `document.querySelector('[data-testid="game-panel"]').dataset.status == "active"`)
	resignGame(veli)
	if _, result := endOf(ali); result == "*" {
		t.Fatalf("the game has no result after veli resigned")
	}

	ali.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(`[data-testid="nav-admin"]`),
		chromedp.Click(`[data-testid="nav-admin"]`),
		chromedp.WaitVisible(`[data-testid="admin-search"]`),
		chromedp.Click(`[data-testid="admin-reports-link"]`),
		chromedp.WaitVisible(`[data-testid="admin-report"]`),
	)
	if got := eval[string](ali, `document.querySelector('[data-testid="admin-report-reason"]').textContent`); got != reason {
		t.Errorf("the report's reason reads %q, want %q", got, reason)
	}
	if n := eval[int](ali, `document.querySelectorAll('[data-testid="admin-report-reason"] b').length`); n != 0 {
		t.Error("the reason's markup became elements")
	}
	id := game[strings.LastIndex(game, "/")+1:]
	ali.do(30*time.Second,
		chromedp.Click(`[data-testid="admin-report"] a[href="/admin/games/`+id+`"]`),
		chromedp.WaitVisible(`[data-testid="admin-void-open"]`),
		chromedp.Click(`[data-testid="admin-void-open"]`),
		chromedp.WaitVisible(`[data-testid="admin-void-confirm"]`),
		chromedp.Click(`[data-testid="admin-void-confirm"]`),
		chromedp.WaitVisible(`[data-testid="admin-notice"]`),
	)
	if n := eval[int](ali, `document.querySelectorAll('[data-testid="admin-voided"]').length + 10 * document.querySelectorAll('[data-testid="admin-void"]').length`); n != 1 {
		t.Errorf("after the void the page shows %d voided marks (+10 per void button left), want 1", n)
	}
	ali.screenshot("voided")

	veli.do(30*time.Second, chromedp.Navigate(srv.URL+"/admin"), chromedp.WaitVisible(`main`))
	if eval[int](veli, `document.querySelectorAll('[data-testid="admin"]').length`) != 0 ||
		!strings.Contains(eval[string](veli, `document.body.textContent`), "Page not found") {
		t.Error("a member reached the administration")
	}
}
