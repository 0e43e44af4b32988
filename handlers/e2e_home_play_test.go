//go:build e2e

package handlers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserHomePractice: a member starts a practice game from the home
// page in one click (Easy, at the default 5+0), then finds the link back
// to it in the header of another page, and it leads back.
func TestBrowserHomePractice(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "hale")
	signUp(b, srv, "hale")
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(`[data-testid="home-practice-easy"]`),
		chromedp.Click(`[data-testid="home-practice-easy"]`),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
	game := gameURL(b)
	if !strings.Contains(game, "/games/") {
		t.Fatalf("practice from the home page went to %s", game)
	}
	if n := eval[int](b, `document.querySelectorAll('[data-testid="nav-game"]').length`); n != 0 {
		t.Errorf("the game page links to itself in the header")
	}
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/rules"),
		chromedp.WaitVisible(`[data-testid="nav-game"]`),
		chromedp.Click(`[data-testid="nav-game"]`),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
	if back := gameURL(b); back != game {
		t.Errorf("the header's game link led to %s, want %s", back, game)
	}
	// The home page shows the game in progress at the top.
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(`[data-testid="home-current-link"]`),
	)
}

// TestBrowserHomeQuickPlay: a member clicks 3+0 in the home page's Quick
// Play grid and is paired with a bot after the fill time.
func TestBrowserHomeQuickPlay(t *testing.T) {
	srv := startServer(t, "--bot-fill-after", "1s")
	b := newBrowser(t, "ilker")
	signUp(b, srv, "ilker")
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(`[data-testid="quick-play"]`),
		chromedp.Click(`[data-testid="quick-3+0"]`),
	)
	waitGame(b, 30*time.Second)
}

// TestBrowserHomeGuestQuickPlay: a guest picks 3+0 on the home page, signs
// up on the way and is paired (with a bot after the fill time) without
// another click.
func TestBrowserHomeGuestQuickPlay(t *testing.T) {
	srv := startServer(t, "--bot-fill-after", "1s")
	b := newBrowser(t, "guest")
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(`[data-testid="quick-play"]`),
		chromedp.Click(`[data-testid="quick-3+0"]`),
		chromedp.WaitVisible(`[data-testid="signup-form"]`),
		chromedp.SendKeys(`[data-testid="signup-form"] [data-testid="username"]`, "jale"),
		chromedp.SendKeys(`[data-testid="signup-form"] [data-testid="password"]`, password),
		chromedp.Click(`[data-testid="signup-form"] [data-testid="submit"]`),
	)
	waitGame(b, 30*time.Second)
}

// TestBrowserHomeScreens saves the home page of a guest and of a member in
// both languages on a laptop, a desktop and a phone; none overflows.
func TestBrowserHomeScreens(t *testing.T) {
	srv := startServer(t)
	guest := newBrowser(t, "guest")
	member := newBrowser(t, "kaan")
	signUp(member, srv, "kaan")
	for _, b := range []*browser{guest, member} {
		for _, vp := range layoutViewports {
			emulate(b, vp)
			for _, lang := range []string{"en", "tr"} {
				b.do(30*time.Second,
					chromedp.Navigate(srv.URL+"/?lang="+lang),
					chromedp.WaitVisible(`html[lang="`+lang+`"] [data-testid="quick-play"]`),
				)
				if over := eval[bool](b, `document.documentElement.scrollWidth > window.innerWidth`); over {
					t.Errorf("%s %s %s: the home page overflows", b.name, vp.name, lang)
				}
				// The whole grid is in sight as the page opens.
				if below := eval[bool](b, `document.querySelector('[data-testid="quick-play"] .quick-grid').getBoundingClientRect().bottom > window.innerHeight`); below && !vp.phone {
					t.Errorf("%s %s %s: the Quick Play grid runs below the window", b.name, vp.name, lang)
				}
				b.screenshot("home-" + vp.name + "-" + lang)
			}
		}
	}
}
