//go:build e2e

package handlers_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// zoneAtNoon returns a fixed-offset time zone in which it is about noon
// now, so that no midnight (the end of the Daily Chess Cup) falls within
// the test, whenever it runs. Etc/GMT-3 is UTC+3: the sign is reversed.
func zoneAtNoon() string {
	offset := 12 - time.Now().UTC().Hour() // -11 .. +12
	switch {
	case offset > 0:
		return "Etc/GMT-" + strconv.Itoa(offset)
	case offset < 0:
		return "Etc/GMT+" + strconv.Itoa(-offset)
	}
	return "Etc/GMT"
}

// TestBrowserStandingsLive: a visitor has the Daily Chess Cup open while
// two players play a Kahvehane game, which Black resigns after two moves
// each. Without a reload, the visitor's standings show White with 3
// points and Black with 1, one game each.
func TestBrowserStandingsLive(t *testing.T) {
	srv := startServer(t, "--bot-fill-after", "2m", "--time-zone", zoneAtNoon())
	a, b, watcher := newBrowser(t, "mehmet"), newBrowser(t, "nur"), newBrowser(t, "watcher")
	watcher.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/tournaments/daily"),
		chromedp.WaitVisible(`[data-testid="standings-empty"]`),
	)
	eval[bool](watcher, `window.sameDocument = true`)
	signUp(a, srv, "mehmet")
	signUp(b, srv, "nur")
	white, black := pairUp(t, a, b, func(x *browser) { joinLounge(x, srv, "kahvehane", "5+0") })
	playMoves(t, white, black, 0, "e2e4", "e7e5", "g1f3", "b8c6")
	resignGame(black)
	checkEnd(t, [2]string{"resignation", "1-0"}, white, black)
	row := func(name, rank, points string) string {
		return `document.querySelector('[data-testid="standing"][data-user="` + name + `"][data-rank="` + rank +
			`"][data-points="` + points + `"][data-games="1"]')`
	}
	waitFor(watcher, 20*time.Second, row(white.name, "1", "3")+" && "+row(black.name, "2", "1"))
	if !eval[bool](watcher, `window.sameDocument === true`) {
		t.Error("the standings page was reloaded; want the stream to update it")
	}
	watcher.screenshot("standings")
}
