//go:build e2e

package handlers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserStreamRefused: past the cap on event streams from one
// address, a page's stream is refused (429) and the page says so at the
// top, in its language, instead of failing without a word; the first page
// keeps its stream.
func TestBrowserStreamRefused(t *testing.T) {
	srv := startServer(t, "--streams-per-address", "1")
	first, second := newBrowser(t, "first"), newBrowser(t, "second")
	first.do(30*time.Second, chromedp.Navigate(srv.URL+"/watch"), chromedp.WaitVisible(`[data-testid="watch"]`))
	waitFor(first, 10*time.Second, `document.querySelector('[data-testid="watch"]') && window.htmx`)
	time.Sleep(500 * time.Millisecond) // the first page's stream is open
	for _, lang := range []string{"en", "tr"} {
		second.do(30*time.Second, chromedp.Navigate(srv.URL+"/watch?lang="+lang), chromedp.WaitVisible(`[data-testid="watch"]`))
		waitFor(second, 15*time.Second, `document.querySelector('[data-testid="stream-refused"]')`)
		got := eval[string](second, `document.querySelector('[data-testid="stream-refused"]').textContent`)
		want := map[string]string{"en": "Too many live pages", "tr": "sekme"}[lang]
		if !strings.Contains(got, want) {
			t.Errorf("%s: the notice says %q, want %q in it", lang, got, want)
		}
		second.screenshot("refused-" + lang)
	}
	if eval[bool](first, `!!document.querySelector('[data-testid="stream-refused"]')`) {
		t.Error("the first page, whose stream was let in, shows the refusal")
	}
}
