//go:build e2e

package handlers_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserHomeBoard opens the home page as a guest: it is no longer a
// board but the page that starts games, with the Quick Play grid (one
// button per time control of SPEC section 4), what Satranç is, and the
// ways to sign up and log in.
func TestBrowserHomeBoard(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "guest")
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(`[data-testid="quick-play"]`),
		chromedp.WaitVisible(`[data-testid="home-intro"]`),
		chromedp.WaitVisible(`[data-testid="home-signup"]`),
	)
	if n := eval[int](b, `document.querySelectorAll('[data-testid="quick-play"] .quick-button').length`); n != 7 {
		t.Errorf("home page: %d Quick Play controls, want 7", n)
	}
	b.screenshot("home")
}
