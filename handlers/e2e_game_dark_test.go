//go:build e2e

package handlers_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// darkBackground is the dark scheme's --bg (static/css/app.css).
const darkBackground = "rgb(22, 21, 18)"

// pageBackground is the colour the page's body shows.
const pageBackground = `getComputedStyle(document.body).backgroundColor`

// TestBrowserGameDark: the game page and the replay follow the system's
// dark scheme (they are dark-ready), and every stage of a private game
// passes axe-core there, colour contrast included, for both players: the
// invitation box while the friend is awaited, the running game with its
// clocks, the chat, a draw offered (the prompt on the opponent's page), the
// resignation's confirmation, the finished game with its result panel;
// then the replay. Screenshots at a laptop's and a phone's size, in the
// dark scheme and in the light one.
func TestBrowserGameDark(t *testing.T) {
	axe := axeSource(t)
	srv := startServer(t)
	a, b := newBrowser(t, "alice"), newBrowser(t, "bob")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	laptop, phone := layoutViewports[0], layoutViewports[2]
	for _, br := range []*browser{a, b} {
		colourScheme(br, "dark")
		emulate(br, laptop)
	}
	// A change of scheme starts the buttons' colour transitions: let them
	// end before a screenshot.
	scheme := func(br *browser, name string) {
		t.Helper()
		colourScheme(br, name)
		time.Sleep(400 * time.Millisecond)
	}
	dark := func(br *browser, page string) {
		t.Helper()
		if got := eval[string](br, pageBackground); got != darkBackground {
			t.Errorf("%s: %s: the page's background is %s, want the dark scheme's %s", br.name, page, got, darkBackground)
		}
		checkAxe(t, br, axe, "dark "+page+", "+br.name)
	}

	// Alice waits for her friend, with the invitation box.
	a.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/play"),
		chromedp.WaitVisible(`[data-testid="private-form"]`),
		chromedp.SetValue(`[data-testid="private-control"]`, "5+0"),
		chromedp.Click(`[data-testid="private-start"]`),
		chromedp.WaitVisible(`[data-testid="invite-link"]`),
	)
	dark(a, "waiting")
	a.screenshot("dark-waiting")
	link := eval[string](a, `document.querySelector('[data-testid="invite-link"]').value`)
	b.do(30*time.Second,
		chromedp.Navigate(link),
		chromedp.WaitVisible(`[data-testid="invite-join"]`),
		chromedp.Click(`[data-testid="invite-join"]`),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
	for _, br := range []*browser{a, b} {
		waitFor(br, 20*time.Second, `document.querySelector('[data-testid="game-panel"]').dataset.status == "active"`)
	}
	white, black := a, b
	if eval[string](a, `document.querySelector('.board').dataset.color`) != "w" {
		white, black = b, a
	}

	// The game runs: one clock runs, the move list fills.
	playMoves(t, white, black, 0, "e2e4", "e7e5")
	for _, br := range []*browser{white, black} {
		if n := eval[int](br, `document.querySelectorAll('.clock[data-running="true"]').length`); n != 1 {
			t.Errorf("%s: %d running clocks, want 1", br.name, n)
		}
		dark(br, "running")
		br.screenshot("dark-running")
	}

	// A word in the chat from each: one's own name and the other's.
	sendChat(white, "Good luck!")
	sendChat(black, "Thanks, you too.")
	for _, br := range []*browser{white, black} {
		waitFor(br, 10*time.Second, `document.querySelectorAll('[data-testid="chat-line"]').length === 2`)
	}

	// White offers a draw: Black is asked, White waits for the answer.
	clickInPanel(white, `[data-testid="draw-offer"]`)
	black.do(20*time.Second, chromedp.WaitVisible(`[data-testid="draw-offered"]`))
	white.do(20*time.Second, chromedp.WaitVisible(`[data-testid="draw-pending"]`))
	for _, br := range []*browser{white, black} {
		dark(br, "draw offered")
		br.screenshot("dark-draw-offer")
	}
	emulate(black, phone)
	black.screenshot("dark-draw-offer-phone")
	emulate(black, laptop)
	clickInPanel(black, `[data-testid="draw-decline"]`)
	waitFor(black, 20*time.Second, `!document.querySelector('[data-testid="draw-offered"]')`)
	waitFor(white, 20*time.Second, `!document.querySelector('[data-testid="draw-pending"]')`)

	// Black opens the resignation's confirmation, and closes it again.
	black.do(10*time.Second, chromedp.Click(`[data-testid="resign-open"]`), chromedp.WaitVisible(`[data-testid="resign-confirm"]`))
	dark(black, "resign confirmation")
	black.screenshot("dark-resign-confirm")
	black.do(10*time.Second, chromedp.Click(`[data-testid="resign-open"]`))
	waitFor(black, 5*time.Second, `!document.querySelector('[data-testid="resign"]').open`)

	// The scholar's mate: the result panel, with its figures settled.
	playMoves(t, white, black, 2, "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
	for _, br := range []*browser{white, black} {
		if reason, result := endOf(br); reason != "checkmate" || result != "1-0" {
			t.Errorf("%s sees %s %s, want checkmate 1-0", br.name, reason, result)
		}
		waitFor(br, 20*time.Second, `(function(){var f=document.querySelector('[data-testid="result-figures"]'); return f && f.dataset.settled == "true"})()`)
		dark(br, "finished")
		br.screenshot("dark-finished")
		emulate(br, phone)
		br.screenshot("dark-finished-phone")
		scheme(br, "light")
		if got := eval[string](br, pageBackground); got == darkBackground {
			t.Errorf("%s: the light scheme shows the dark background", br.name)
		}
		br.screenshot("light-finished-phone")
		emulate(br, laptop)
		br.screenshot("light-finished")
		scheme(br, "dark")
	}

	// The replay of the game, from Alice's profile.
	a.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/players/alice"),
		chromedp.WaitVisible(`[data-testid="past-game-replay"]`),
		chromedp.Click(`[data-testid="past-game-replay"]`),
		chromedp.WaitVisible(`[data-testid="replay"]`),
	)
	waitFor(a, 10*time.Second, `Array.from(document.images).every(i => i.complete)`)
	dark(a, "replay")
	a.screenshot("dark-replay")
	emulate(a, phone)
	a.screenshot("dark-replay-phone")
	scheme(a, "light")
	a.screenshot("light-replay-phone")
	emulate(a, laptop)
	a.screenshot("light-replay")
}
