//go:build e2e

package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// sitePage is one page of the site for TestBrowserSite: its path, who
// opens it, and a name for the failures.
type sitePage struct {
	name, path string
	member     bool // opened by the member (an administrator), else by the guest
	optional   bool // skipped when the guest's GET answers 404 (a page still being built)
}

// pageFacts is what TestBrowserSite reads of every page.
type pageFacts struct {
	Lang        string `json:"lang"`
	H1          int    `json:"h1"`
	Description string `json:"description"`
	ScrollWidth int    `json:"scrollWidth"`
	ClientWidth int    `json:"clientWidth"`
	Wide        string `json:"wide"` // the widest element that sticks out, if any
}

const pageFactsJS = `(function(){
	var d = document.documentElement, m = document.querySelector('meta[name="description"]'), wide = '';
	if (d.scrollWidth > d.clientWidth) {
		document.querySelectorAll('body *').forEach(function (e) {
			var r = e.getBoundingClientRect();
			if (!wide && r.right > d.clientWidth + 0.5 && r.width > 0) wide = e.outerHTML.slice(0, 160);
		});
	}
	return {lang: d.lang, h1: document.querySelectorAll('h1').length,
		description: m ? m.content : '', scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, wide: wide};
})()`

// TestBrowserSite goes through every page of the site, as a guest and as
// a member who is the administrator, in English and in Turkish, at a
// phone's 360 px: each page has exactly one h1 and a meta description of
// its own language, does not overflow sideways, and (with AXE_CORE_JS)
// axe-core finds no serious or critical violation. At 390 px the header's
// menu opens and each of its links is visible and leads to its page. It
// saves screenshots of the main pages at a laptop's, a desktop's and a
// phone's size, in both languages and (for two pages) in the dark scheme.
func TestBrowserSite(t *testing.T) {
	var axe string
	if path := os.Getenv("AXE_CORE_JS"); path != "" {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		axe = string(src)
	} else {
		t.Log("AXE_CORE_JS is not set: the pages are checked without axe-core")
	}
	srv := startServer(t)
	ali, bora, guest := newBrowser(t, "ali"), newBrowser(t, "bora"), newBrowser(t, "guest")
	signUp(ali, srv, "ali") // the first member: the administrator
	signUp(bora, srv, "bora")

	// bora's private game waits for a friend: its page and its invitation.
	bora.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/play"),
		chromedp.WaitVisible(`[data-testid="private-form"]`),
		chromedp.Click(`[data-testid="private-start"]`),
		chromedp.WaitVisible(`[data-testid="invite-link"]`),
	)
	invite := eval[string](bora, `document.querySelector('[data-testid="invite-link"]').value`)
	invitePath := strings.TrimPrefix(invite, srv.URL)
	waiting := strings.TrimPrefix(gameURL(bora), srv.URL)

	// ali's practice game: its page while it runs, then its replay.
	startPractice(ali, srv, "easy", "untimed", "white")
	game := strings.TrimPrefix(gameURL(ali), srv.URL)
	id := game[strings.LastIndex(game, "/")+1:]

	pages := []sitePage{
		{name: "home", path: "/"},
		{name: "sign-up", path: "/signup"},
		{name: "log-in", path: "/login"},
		{name: "rules", path: "/rules"},
		{name: "guidelines", path: "/guidelines"},
		{name: "tournament rules", path: "/tournament-rules"},
		{name: "terms", path: "/terms"},
		{name: "leaderboard", path: "/leaderboard"},
		{name: "daily cup", path: "/tournaments/daily"},
		{name: "weekly league", path: "/tournaments/weekly"},
		{name: "player", path: "/players/ali"},
		{name: "invitation (guest)", path: invitePath},
		{name: "watch", path: "/watch", optional: true},
		{name: "not found", path: "/no-such-page"},
		{name: "home (member)", path: "/", member: true},
		{name: "play", path: "/play", member: true},
		{name: "game", path: game, member: true},
		{name: "lobby", path: "/lobby", member: true},
		{name: "settings", path: "/settings", member: true},
		{name: "profile", path: "/profile", member: true},
		{name: "invitation (member)", path: invitePath, member: true},
		{name: "admin", path: "/admin?q=a", member: true},
		{name: "admin reports", path: "/admin/reports", member: true},
		{name: "admin member", path: "/admin/users/bora", member: true},
		{name: "admin game", path: "/admin/games/" + id, member: true},
		{name: "not found (member)", path: "/games/999999", member: true},
		{name: "leaderboard (member)", path: "/leaderboard", member: true},
	}

	phone := func(b *browser, w int64) {
		b.t.Helper()
		b.do(10*time.Second, chromedp.EmulateViewport(w, 740, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	}
	phone(ali, 360)
	phone(guest, 360)
	check := func(b *browser, p sitePage, lang string) {
		t.Helper()
		label := lang + " " + p.name
		b.do(30*time.Second, chromedp.Navigate(srv.URL+withLang(p.path, lang)), chromedp.WaitReady("body"))
		f := eval[pageFacts](b, pageFactsJS)
		if f.Lang != lang {
			t.Errorf("%s: html lang %q", label, f.Lang)
		}
		if f.H1 != 1 {
			t.Errorf("%s: %d h1 elements, want 1", label, f.H1)
		}
		if strings.TrimSpace(f.Description) == "" {
			t.Errorf("%s: no meta description", label)
		}
		if f.ScrollWidth > f.ClientWidth {
			t.Errorf("%s: %d px wide in a %d px window: %s", label, f.ScrollWidth, f.ClientWidth, f.Wide)
		}
		if axe != "" {
			checkAxe(t, b, axe, label)
		}
	}
	for _, p := range pages {
		if p.optional && guestStatus(t, srv.URL+p.path) == http.StatusNotFound {
			t.Logf("%s: %s is not served yet, skipped", p.name, p.path)
			continue
		}
		b := guest
		if p.member {
			b = ali
		}
		var english string
		for _, lang := range []string{"en", "tr"} {
			check(b, p, lang)
			d := eval[string](b, `(document.querySelector('meta[name="description"]') || {}).content || ""`)
			if lang == "en" {
				english = d
			} else if d == english {
				t.Errorf("%s: the Turkish meta description is the English one: %q", p.name, d)
			}
		}
	}

	// The practice game ends; its replay is a page of the site too.
	ali.do(30*time.Second, chromedp.Navigate(srv.URL+game), chromedp.WaitVisible(`[data-testid="game-panel"]`))
	// Three moves each, so that resigning is not an abort.
	for i, m := range [][2]string{{"e2", "e4"}, {"d2", "d4"}, {"g1", "f3"}} {
		waitMyTurn(ali, 2*i)
		clickMove(ali, m[0], m[1])
		waitPly(ali, 2*i+2)
	}
	clickInPanel(ali, `[data-testid="resign-open"]`)
	clickInPanel(ali, `[data-testid="resign-confirm"]`)
	endOf(ali)
	for _, lang := range []string{"en", "tr"} {
		check(ali, sitePage{name: "replay", path: "/replay/" + id, member: true}, lang)
		check(ali, sitePage{name: "game, finished", path: game, member: true}, lang)
		check(bora, sitePage{name: "game, waiting for the friend", path: waiting, member: true}, lang)
	}
	bora.screenshot("waiting-for-the-friend")

	// The waiting page of Quick Play, before anyone (or a bot) comes.
	ali.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/lobby?lang=en"),
		chromedp.WaitVisible(`[data-testid="quick-play"] button`),
		chromedp.Click(`[data-testid="quick-play"] button`),
		chromedp.WaitReady("body"),
	)
	waitFor(ali, 10*time.Second, `location.pathname !== "/lobby"`)
	if eval[bool](ali, `!!document.querySelector('[data-testid="wait-page"]')`) {
		f := eval[pageFacts](ali, pageFactsJS)
		if f.H1 != 1 || f.Description == "" || f.ScrollWidth > f.ClientWidth {
			t.Errorf("wait page: %+v", f)
		}
		if axe != "" {
			checkAxe(t, ali, axe, "en wait")
		}
		ali.screenshot("wait-360")
		ali.do(20*time.Second, chromedp.Click(`[data-testid="wait-cancel"]`))
		waitFor(ali, 20*time.Second, `location.pathname !== "/lobby/wait"`)
	} else {
		t.Logf("Quick Play paired ali at once (%s): no waiting page to check", eval[string](ali, `location.pathname`))
	}

	// The phone menu at 390 px and 360 px: every link visible, and each one
	// leads to its page. ali has a game in progress again, so the link back
	// to it stands in the header beside the menu, inside the window.
	// (A computer player may have taken the Quick Play seat as ali
	// stopped waiting: that game is in progress then.)
	if !strings.HasPrefix(eval[string](ali, `location.pathname`), "/games/") {
		startPractice(ali, srv, "easy", "untimed", "white")
	}
	phone(bora, 390)
	phone(guest, 390)
	checkMenu(t, srv, guest)
	checkMenu(t, srv, bora)
	for _, w := range []int64{390, 360} {
		phone(ali, w)
		checkMenu(t, srv, ali)
		ali.do(20*time.Second, chromedp.Navigate(srv.URL+"/leaderboard?lang=tr"), chromedp.WaitVisible(`[data-testid="nav-game"]`))
		if r := eval[[]float64](ali, `(function(){var r=document.querySelector('[data-testid="nav-game"]').getBoundingClientRect();return [r.left,r.top,r.right,r.bottom]})()`); r[0] < 0 || r[2] > float64(w) || r[3] <= r[1] {
			t.Errorf("the link back to the game is at %v, outside a %d px window", r, w)
		}
	}

	// On a wide screen the header is one line (the game page sizes its
	// board by it), for an administrator with a game in progress too.
	for _, w := range []int64{1100, 1366} {
		ali.do(10*time.Second, chromedp.EmulateViewport(w, 800))
		for _, lang := range []string{"en", "tr"} {
			ali.do(20*time.Second, chromedp.Navigate(srv.URL+"/leaderboard?lang="+lang), chromedp.WaitVisible(`[data-testid="nav-game"]`))
			if h := eval[float64](ali, `document.querySelector('.site-header').getBoundingClientRect().height`); h > 52 {
				t.Errorf("%s at %d px: the header is %.0f px high, more than one line", lang, w, h)
				ali.screenshot(fmt.Sprintf("header-%s-%d", lang, w))
			}
		}
	}

	// Screenshots of the main pages.
	for _, vp := range layoutViewports {
		emulate(ali, vp)
		for _, lang := range []string{"en", "tr"} {
			for _, p := range []string{"/play", "/lobby", "/settings", "/leaderboard", "/tournaments/daily"} {
				ali.do(30*time.Second, chromedp.Navigate(srv.URL+withLang(p, lang)), chromedp.WaitReady("body"))
				ali.screenshot(fmt.Sprintf("%s-%s-%dx%d", strings.ReplaceAll(strings.Trim(p, "/"), "/", "-"), lang, vp.w, vp.h))
			}
		}
	}
	emulate(guest, layoutViewports[0])
	for _, p := range []string{"/login", "/no-such-page", "/guidelines", invitePath} {
		guest.do(30*time.Second, chromedp.Navigate(srv.URL+withLang(p, "tr")), chromedp.WaitReady("body"))
		guest.screenshot(strings.NewReplacer("/", "-").Replace(strings.Trim(p, "/")) + "-tr")
	}
	ali.do(30*time.Second, chromedp.EmulateViewport(1366, 657), chromedp.Navigate(srv.URL+"/replay/"+id+"?lang=tr"), chromedp.WaitVisible(`[data-testid="replay"]`))
	ali.screenshot("replay-tr")
	// The dark scheme: the same tokens, other colours.
	ali.do(10*time.Second, chromedp.EmulateViewport(1366, 657))
	darkScheme(ali)
	for _, p := range []string{"/play", "/lobby", "/settings", "/leaderboard", "/admin?q=a", "/admin/users/bora", "/rules", "/no-such-page"} {
		ali.do(30*time.Second, chromedp.Navigate(srv.URL+withLang(p, "en")), chromedp.WaitReady("body"))
		if axe != "" {
			checkAxe(t, ali, axe, "dark "+p)
		}
		ali.screenshot("dark-" + strings.Trim(strings.NewReplacer("/", "-", "?", "-", "=", "-").Replace(p), "-"))
	}
}

// checkMenu opens the header's menu on a small page of b's (the window
// already a phone's) and follows each of its links in turn: each must be
// inside the window when the menu is open, and clicking it must lead to
// the link's address.
func checkMenu(t *testing.T, srv *server, b *browser) {
	t.Helper()
	open := func() {
		b.do(20*time.Second,
			chromedp.Navigate(srv.URL+"/terms"),
			chromedp.WaitVisible(`[data-testid="nav-menu-open"]`),
			chromedp.Click(`[data-testid="nav-menu-open"]`),
			chromedp.WaitVisible(`.nav-menu-links a`),
		)
	}
	open()
	b.screenshot("menu-390")
	links := eval[[]string](b, `Array.from(document.querySelectorAll('.nav-menu-links a')).map(a => a.getAttribute('href'))`)
	if len(links) < 6 {
		t.Errorf("%s: the menu has %d links: %v", b.name, len(links), links)
	}
	for i, href := range links {
		if i > 0 {
			open()
		}
		r := eval[[]float64](b, fmt.Sprintf(`(function(){var r=document.querySelectorAll('.nav-menu-links a')[%d].getBoundingClientRect();return [r.left,r.top,r.right,r.bottom]})()`, i))
		if r[0] < 0 || r[1] < 0 || r[2] > float64(eval[int](b, `innerWidth`)) || r[2]-r[0] < 1 || r[3]-r[1] < 1 {
			t.Errorf("%s: the menu's link %s is at %v, not inside the window", b.name, href, r)
			continue
		}
		b.do(20*time.Second, chromedp.Click(fmt.Sprintf(`.nav-menu-links a[href="%s"]`, href)), chromedp.WaitReady("body"))
		// A guest's link to a members' page leads through the log-in page.
		want := strings.SplitN(href, "?", 2)[0]
		waitFor(b, 10*time.Second, fmt.Sprintf(`location.pathname === %q || (%t && location.pathname === "/login")`, want, b.name == "guest"))
	}
	// A member's log-out button is in the menu too, and visible.
	if b.name != "guest" {
		open()
		if !eval[bool](b, `(function(){var e=document.querySelector('.nav-menu-links [data-testid="logout"]');if(!e)return false;var r=e.getBoundingClientRect();return r.width>0&&r.right<=innerWidth})()`) {
			t.Errorf("%s: the log-out button is not visible in the open menu", b.name)
		}
	}
}

// darkScheme makes b's pages see prefers-color-scheme: dark.
func darkScheme(b *browser) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
		})
	})
	if err != nil {
		b.t.Fatalf("%s: emulate the dark scheme: %v", b.name, err)
	}
}

// withLang adds the lang parameter to path.
func withLang(path, lang string) string {
	if strings.Contains(path, "?") {
		return path + "&lang=" + url.QueryEscape(lang)
	}
	return path + "?lang=" + url.QueryEscape(lang)
}

// guestStatus is the status of a guest's GET of u, without following
// redirects.
func guestStatus(t *testing.T, u string) int {
	t.Helper()
	c := http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 10 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
