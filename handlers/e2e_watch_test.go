//go:build e2e

package handlers_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// miniGameSel selects the Watch list's item of game id.
func miniGameSel(id int64) string {
	return fmt.Sprintf(`[data-testid="mini-game"][data-game-id="%d"]`, id)
}

// TestBrowserWatch: a guest (a browser that never signed up) watches a
// rated game between two members, as on lichess. The game page shows each
// move as it is played, with none of a player's parts: no chat, move
// form, voice, report, resign or draw buttons, invitation, and a board
// that takes no move. The Watch page lists the game as a mini-board that
// follows the moves, through one stream for the whole list; the home page
// shows it too, to guests and members, beside the Daily Chess Cup. Once
// Black resigns, the list empties and a new guest reads the finished
// game. axe-core checks the Watch and home pages in English and Turkish,
// and the pages are photographed at the laptop, desktop and phone sizes.
func TestBrowserWatch(t *testing.T) {
	srv := startServer(t)
	a, b := newBrowser(t, "alice"), newBrowser(t, "bob")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	white, black := pairUp(t, a, b, func(x *browser) { joinQuick(x, srv, "5+0") })
	url, id := gameURL(white), gameIDOf(white)

	guest := newBrowser(t, "guest")
	guest.do(30*time.Second,
		chromedp.Navigate(url),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
	playMoves(t, white, black, 0, "e2e4")
	waitPly(guest, 1)
	if got := moves(guest); len(got) != 1 || got[0] != "e4" {
		t.Errorf("the guest's move list = %q, want [e4]", got)
	}
	if n := eval[int](guest, `document.querySelectorAll('[data-testid="chat"], [data-testid="chat-form"], [data-testid="move-form"], [data-testid="voice"], [data-testid="report-form"], [data-testid="resign-open"], [data-testid="draw-offer"], [data-testid="invite"]').length`); n != 0 {
		t.Errorf("the guest's game page has %d of a player's parts, want none", n)
	}
	if got := eval[string](guest, `document.querySelector('.board').dataset.interactive || ""`); got == "true" {
		t.Error("the guest's board takes moves")
	}
	if got := eval[string](guest, `document.querySelector('[data-testid="nav-login"], a[href^="/login"]') ? "guest" : "member"`); got != "guest" {
		t.Errorf("the watching browser is a %s, want a guest", got)
	}
	guest.screenshot("game")

	// The Watch page: the game's mini-board follows the moves.
	guest.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/watch"),
		chromedp.WaitVisible(miniGameSel(id)),
	)
	link := miniGameSel(id) + ` [data-testid="mini-game-link"]`
	if got := eval[string](guest, `document.querySelector('`+link+`').dataset.ply`); got != "1" {
		t.Errorf("mini-board ply = %s, want 1", got)
	}
	if n := eval[int](guest, `document.querySelectorAll('h1').length`); n != 1 {
		t.Errorf("the Watch page has %d h1, want 1", n)
	}
	names := eval[string](guest, `document.querySelector('`+link+`').textContent`)
	for _, name := range []string{"alice", "bob"} {
		if !strings.Contains(names, name) {
			t.Errorf("mini-board %q does not name %s", names, name)
		}
	}
	playMoves(t, white, black, 1, "e7e5")
	waitFor(guest, 15*time.Second, `document.querySelector('`+link+`').dataset.ply == "2" && document.querySelector('`+link+` [data-square="e5"] img')`)
	if got := eval[string](guest, `document.querySelector('`+link+`').getAttribute('href')`); got != "/games/"+strconv.FormatInt(id, 10) {
		t.Errorf("mini-board links to %s", got)
	}
	// One stream for the whole list.
	if n := eval[int](guest, `document.querySelectorAll('[sse-connect]').length`); n != 1 {
		t.Errorf("the Watch page opens %d streams, want 1", n)
	}
	photograph(t, guest, srv.URL+"/watch", miniGameSel(id), "watch")

	// The home page shows the game to guests and members.
	photograph(t, guest, srv.URL+"/", `[data-testid="home-watch"] `+miniGameSel(id), "home-guest")
	if n := eval[int](guest, `document.querySelectorAll('[data-testid="home-cup"]').length`); n != 1 {
		t.Errorf("the home page has %d Daily Chess Cup panels, want 1", n)
	}

	// The narrowest phone: nothing wider than the screen.
	guest.do(10*time.Second, chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	for _, page := range []string{"/watch", "/"} {
		guest.do(30*time.Second,
			chromedp.Navigate(srv.URL+page+"?lang=tr"),
			chromedp.WaitVisible(miniGameSel(id)),
		)
		if over := eval[int](guest, `document.documentElement.scrollWidth - window.innerWidth`); over > 0 {
			t.Errorf("%s at 360 px: %d px wider than the screen", page, over)
		}
	}
	guest.do(10*time.Second, chromedp.EmulateReset())

	// The dark scheme, as the system asks for it, in a browser of its own.
	dark := newBrowser(t, "dark-guest")
	dark.do(10*time.Second, chromedp.EmulateViewport(1366, 657))
	watchScheme(dark, "dark")
	for _, page := range []string{"/watch", "/"} {
		dark.do(30*time.Second, chromedp.Navigate(srv.URL+page))
		waitFor(dark, 20*time.Second, `document.querySelector('`+miniGameSel(id)+`')`)
		dark.screenshot("dark" + strings.TrimSuffix(strings.ReplaceAll(page, "/", "-"), "-"))
	}

	t.Run("axe", func(t *testing.T) {
		axe := axeSource(t)
		for _, lang := range []string{"en", "tr"} {
			for _, page := range []string{"/watch", "/"} {
				guest.do(30*time.Second, chromedp.Navigate(srv.URL+page+"?lang="+lang))
				// Polled, not chromedp.WaitVisible: the stream's first event
				// redraws the list, and a node replaced during the wait may
				// leave WaitVisible waiting for good.
				waitFor(guest, 20*time.Second, `document.querySelector('html[lang="`+lang+`"] `+miniGameSel(id)+`')`)
				checkAxe(t, guest, axe, page+" ("+lang+", guest)")
			}
		}
	})

	carol := newBrowser(t, "carol")
	signUp(carol, srv, "carol")
	photograph(t, carol, srv.URL+"/", `[data-testid="home-watch"] `+miniGameSel(id), "home-member")

	// Black resigns: the game leaves the list, and a guest reads it.
	playMoves(t, white, black, 2, "g1f3", "b8c6")
	waitMyTurn(white, 4)
	guest.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/watch"),
		chromedp.WaitVisible(miniGameSel(id)),
	)
	resignGame(black)
	waitFor(guest, 15*time.Second, `document.querySelector('[data-testid="watch-empty"]') && !document.querySelector('`+miniGameSel(id)+`')`)
	guest.screenshot("watch-empty")

	late := newBrowser(t, "late-guest")
	late.do(30*time.Second,
		chromedp.Navigate(url),
		chromedp.WaitVisible(`[data-testid="game-panel"][data-status="finished"]`),
	)
	if got := moves(late); len(got) != 4 {
		t.Errorf("the finished game's move list = %q, want 4 moves", got)
	}
	if reason, result := endOf(late); reason != "resignation" || result != "1-0" {
		t.Errorf("the finished game reads %s %s, want resignation 1-0", reason, result)
	}
	late.screenshot("finished")
}

// photograph opens url in English and Turkish at the laptop, desktop and
// phone sizes, waits for sel, checks that the page is no wider than the
// screen, and saves a screenshot of each.
func photograph(t *testing.T, b *browser, url, sel, label string) {
	t.Helper()
	for _, lang := range []string{"en", "tr"} {
		for _, vp := range layoutViewports {
			emulate(b, vp)
			b.do(30*time.Second,
				chromedp.Navigate(url+"?lang="+lang),
				chromedp.WaitVisible(`html[lang="`+lang+`"] `+sel),
			)
			waitFor(b, 10*time.Second, `Array.from(document.images).every(i => i.complete)`)
			if over := eval[int](b, `document.documentElement.scrollWidth - window.innerWidth`); over > 0 {
				t.Errorf("%s (%s, %s): %d px wider than the screen", label, lang, vp.name, over)
			}
			b.screenshot(label + "-" + lang + "-" + vp.name)
		}
	}
	b.do(10*time.Second, chromedp.EmulateReset())
}

// watchScheme makes b's pages see prefers-color-scheme: scheme.
func watchScheme(b *browser, scheme string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
	})
	if err != nil {
		b.t.Fatalf("%s: emulate the %s scheme: %v", b.name, scheme, err)
	}
}

// TestBrowserWatchStreamsClosed: a guest goes back and forth between the
// home page and the Watch page, each with a stream of the list. Chromium
// keeps a page it may bring back with its stream open, and opens only six
// connections to a site: unless the page closes its stream as it is left
// (static/js/watch.js), the seventh page or so never loads.
func TestBrowserWatchStreamsClosed(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "guest")
	for i := range 25 {
		page := "/watch"
		if i%2 == 1 {
			page = "/"
		}
		b.do(10*time.Second, chromedp.Navigate(srv.URL+page))
	}
	b.do(10*time.Second, chromedp.NavigateBack(), chromedp.WaitVisible(`[data-testid="watch-empty"]`))
}
