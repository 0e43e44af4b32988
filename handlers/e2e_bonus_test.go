//go:build e2e

package handlers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserDailyBonus: a new member starts with the sign-up grant, claims
// the daily bonus once, and is told on a second try that it was given.
func TestBrowserDailyBonus(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "ece")
	signUp(b, srv, "ece")
	b.do(20*time.Second,
		chromedp.Navigate(srv.URL+"/lobby?lang=en"),
		chromedp.WaitVisible(`[data-testid="balance"]`),
	)
	balance := func() string {
		return strings.TrimSpace(eval[string](b, `document.querySelector('[data-testid="balance"]').textContent`))
	}
	if got := balance(); !strings.Contains(got, "5,000") {
		t.Fatalf("balance of a new member: %q, want the 5,000 sign-up grant", got)
	}
	b.do(20*time.Second,
		chromedp.Click(`[data-testid="claim-bonus"]`),
		chromedp.WaitVisible(`[data-testid="bonus-notice"]`),
	)
	if got := balance(); !strings.Contains(got, "6,000") {
		t.Errorf("balance after the bonus: %q, want 6,000", got)
	}
	first := eval[string](b, `document.querySelector('[data-testid="bonus-notice"]').textContent`)
	b.do(20*time.Second, chromedp.Click(`[data-testid="claim-bonus"]`))
	waitFor(b, 10*time.Second, `document.querySelector('[data-testid="bonus-notice"]').textContent != `+"`"+first+"`")
	if got := balance(); !strings.Contains(got, "6,000") {
		t.Errorf("balance after a second claim: %q, want still 6,000", got)
	}
}
