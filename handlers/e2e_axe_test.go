//go:build e2e

package handlers_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeSource returns axe-core's script, which .ci/run fetches from the npm
// registry (AXE_CORE_JS names the file); the test fails without it in CI
// and is skipped elsewhere.
func axeSource(t *testing.T) string {
	t.Helper()
	path := os.Getenv("AXE_CORE_JS")
	if path == "" {
		if os.Getenv("SATRANC_TEST_NO_SKIP") == "1" {
			t.Fatal("AXE_CORE_JS is not set: .ci/run fetches axe-core (npm) and names its axe.min.js")
		}
		t.Skip("AXE_CORE_JS is not set (npm pack axe-core, then point it at package/axe.min.js)")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// axeViolation is one rule axe-core found broken on a page.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any  `json:"target"`
		HTML   string `json:"html"`
	} `json:"nodes"`
}

// checkAxe runs axe-core on the page b shows and fails the test on every
// serious or critical violation; moderate and minor ones are logged.
func checkAxe(t *testing.T, b *browser, axe, page string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	// The script is evaluated by the browser's developer tools, which the
	// page's Content-Security-Policy does not govern.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](axe+";true")); err != nil {
		t.Fatalf("%s: load axe-core: %v", page, err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: axe.run: %v", page, err)
	}
	var violations []axeViolation
	if err := json.Unmarshal([]byte(raw), &violations); err != nil {
		t.Fatalf("%s: axe's result: %v", page, err)
	}
	for _, v := range violations {
		var where []string
		for _, n := range v.Nodes {
			where = append(where, strings.TrimSpace(n.HTML))
		}
		msg := page + ": axe " + v.Impact + " " + v.ID + " (" + v.Help + "): " + strings.Join(where, " | ")
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}
}

// TestBrowserAccessibility runs axe-core on the pages a player meets: the
// home, play, lobby, rules and profile pages, the game page of both
// players while the game runs and once it is over, and the replay, in
// English and in Turkish. None may have a serious or critical violation.
func TestBrowserAccessibility(t *testing.T) {
	axe := axeSource(t)
	srv := startServer(t)
	a, b := newBrowser(t, "alice"), newBrowser(t, "bob")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	visit := func(br *browser, path, page string) {
		t.Helper()
		br.do(30*time.Second, chromedp.Navigate(srv.URL+path), chromedp.WaitReady("body"))
		checkAxe(t, br, axe, page)
	}
	for _, lang := range []string{"en", "tr"} {
		for _, p := range []struct{ path, page string }{
			{"/", "home"}, {"/play", "play"}, {"/lobby", "lobby"}, {"/rules", "rules"},
			{"/profile", "profile"}, {"/players/alice", "player"}, {"/leaderboard", "leaderboard"},
		} {
			visit(a, p.path+"?lang="+lang, lang+" "+p.page)
		}
	}

	white, black := startPrivateGame(t, srv, a, b, "5+0")
	playMoves(t, white, black, 0, "e2e4", "e7e5")
	checkAxe(t, white, axe, "game, White, running")
	checkAxe(t, black, axe, "game, Black, running")
	playMoves(t, white, black, 2, "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
	endOf(white)
	endOf(black)
	checkAxe(t, white, axe, "game, White, finished")
	checkAxe(t, black, axe, "game, Black, finished")

	for _, lang := range []string{"en", "tr"} {
		a.do(20*time.Second,
			chromedp.Navigate(srv.URL+"/players/alice?lang="+lang),
			chromedp.WaitVisible(`[data-testid="past-game-replay"]`),
			chromedp.Click(`[data-testid="past-game-replay"]`),
			chromedp.WaitVisible(`[data-testid="replay"]`),
		)
		checkAxe(t, a, axe, lang+" replay")
	}
}
