//go:build e2e

package handlers_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserHomeBoard opens the home page and finds the starting position
// drawn with White at the bottom.
func TestBrowserHomeBoard(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "guest")
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(`[data-testid="board"]`),
	)
	squares := eval[int](b, `document.querySelectorAll('[data-testid="square"]').length`)
	pieces := eval[int](b, `document.querySelectorAll('[data-testid="piece"]').length`)
	bottomLeft := eval[string](b, `document.querySelectorAll('[data-testid="square"]')[56].dataset.square`)
	topRight := eval[string](b, `document.querySelectorAll('[data-testid="square"]')[7].dataset.square`)
	if squares != 64 || pieces != 32 {
		t.Errorf("home board: %d squares and %d pieces, want 64 and 32", squares, pieces)
	}
	if bottomLeft != "a1" || topRight != "h8" {
		t.Errorf("home board corners: bottom left %s, top right %s; want a1 and h8", bottomLeft, topRight)
	}
	b.screenshot("home")
}
