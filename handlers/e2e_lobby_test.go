//go:build e2e

package handlers_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// joinQuick has b choose a Quick Play control in the lobby; it waits for
// the waiting page.
func joinQuick(b *browser, srv *server, control string) {
	b.t.Helper()
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/lobby"),
		chromedp.WaitVisible(`[data-testid="quick-play"]`),
		chromedp.Click(`[data-testid="quick-`+control+`"]`),
	)
	// The second player of a pair goes straight to the game.
	waitFor(b, 20*time.Second, `document.querySelector('[data-testid="wait-page"], [data-testid="game-panel"]')`)
}

// joinLounge has b sit down in a lounge with control.
func joinLounge(b *browser, srv *server, slug, control string) {
	b.t.Helper()
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/lobby"),
		chromedp.WaitVisible(`[data-testid="lounges"]`),
		chromedp.SetValue(`[data-testid="control-`+slug+`"]`, control),
		chromedp.Click(`[data-testid="join-`+slug+`"]`),
	)
}

// waitedTwoSeconds is true once the waiting page counts at least 0:02
// (a slow stream may skip a second, so not exactly 0:02).
const waitedTwoSeconds = `/^0:(0[2-9]|[1-5][0-9])$/.test((document.querySelector('[data-testid="wait-elapsed"]') || {}).textContent || "")`

// waitGame waits until b shows an active game and returns its URL.
func waitGame(b *browser, timeout time.Duration) string {
	b.t.Helper()
	waitFor(b, timeout, `document.querySelector('[data-testid="game-panel"]') && document.querySelector('[data-testid="game-panel"]').dataset.status == "active"`)
	return gameURL(b)
}

// colorOf returns "w" or "b", the side b plays.
func colorOf(b *browser) string {
	return eval[string](b, `document.querySelector('.board').dataset.color`)
}

// pairUp has a and b join Quick Play or a lounge and returns their
// browsers as White and Black of the one game they were paired in.
func pairUp(t *testing.T, a, b *browser, join func(*browser)) (white, black *browser) {
	t.Helper()
	join(a)
	join(b)
	ua, ub := waitGame(a, 20*time.Second), waitGame(b, 20*time.Second)
	if ua != ub {
		t.Fatalf("paired in different games: %s and %s", ua, ub)
	}
	if colorOf(a) == colorOf(b) {
		t.Fatalf("both play %s", colorOf(a))
	}
	if colorOf(a) == "w" {
		return a, b
	}
	return b, a
}

// TestBrowserQuickPlayPair: two players choose the same Quick Play control
// and are paired with each other, each seeing the other's name.
func TestBrowserQuickPlayPair(t *testing.T) {
	srv := startServer(t, "--bot-fill-after", "2m")
	a, b := newBrowser(t, "emel"), newBrowser(t, "fikret")
	signUp(a, srv, "emel")
	signUp(b, srv, "fikret")
	white, black := pairUp(t, a, b, func(x *browser) { joinQuick(x, srv, "3+2") })
	for _, x := range []*browser{white, black} {
		names := eval[string](x, `document.querySelector('[data-testid="game-panel"]').textContent`)
		if !strings.Contains(names, "emel") || !strings.Contains(names, "fikret") {
			t.Errorf("%s: game page does not name both players", x.name)
		}
	}
	playMoves(t, white, black, 0, "e2e4", "e7e5")
}

// TestBrowserQuickPlayCancel: a waiting player sees the time waited count
// up and stops waiting with the button; the lobby no longer holds them (the
// waiting page sends them back to the lobby).
func TestBrowserQuickPlayCancel(t *testing.T) {
	srv := startServer(t, "--bot-fill-after", "2m")
	a := newBrowser(t, "kerem")
	signUp(a, srv, "kerem")
	joinQuick(a, srv, "10+0")
	waitFor(a, 10*time.Second, waitedTwoSeconds)
	a.do(10*time.Second,
		chromedp.Click(`[data-testid="wait-cancel"]`),
		chromedp.WaitVisible(`[data-testid="quick-play"]`),
		chromedp.Navigate(srv.URL+"/lobby/wait"),
		chromedp.WaitVisible(`[data-testid="quick-play"]`),
	)
	if path := eval[string](a, `location.pathname`); path != "/lobby" {
		t.Errorf("after stopping, the waiting page leads to %s, want /lobby", path)
	}
}

// TestBrowserQuickPlayBot: a lone player sees the waiting page with the
// time waited, gets a computer opponent after about 6 seconds, shown with
// an ordinary player name, and the game plays to an end (resignation after
// two moves each).
func TestBrowserQuickPlayBot(t *testing.T) {
	srv := startServer(t)
	a := newBrowser(t, "gonca")
	signUp(a, srv, "gonca")
	joinQuick(a, srv, "5+0")
	start := time.Now()
	waitFor(a, 5*time.Second, waitedTwoSeconds)
	waitGame(a, 20*time.Second)
	if waited := time.Since(start); waited < 5*time.Second || waited > 12*time.Second {
		t.Errorf("bot came after %v, want about 6 s", waited)
	}
	// The side is read once: a finished game's board no longer says it.
	color := colorOf(a)
	opponent := "white"
	if color == "w" {
		opponent = "black"
	}
	name := strings.TrimSpace(eval[string](a, `document.querySelector('[data-testid="player-`+opponent+`"] .player-name').textContent`))
	if name == "" || strings.Contains(name, "Computer") {
		t.Errorf("bot shown as %q, want an ordinary player name", name)
	}
	first := 0
	if color == "b" {
		first = 1
	}
	for ply := first; ply < 4; ply += 2 {
		playAny(a, ply)
	}
	waitMyTurn(a, first+4) // two moves each, and my turn again
	resignGame(a)
	want := "0-1"
	if color == "b" {
		want = "1-0"
	}
	checkEnd(t, [2]string{"resignation", want}, a)
	checkReplay(t, a, srv)
}

// checkReplay opens b's latest game from their profile and steps through
// it with the arrow keys and the Home key.
func checkReplay(t *testing.T, b *browser, srv *server) {
	t.Helper()
	b.do(20*time.Second,
		chromedp.Navigate(srv.URL+"/players/"+b.name),
		chromedp.WaitVisible(`[data-testid="past-game-replay"]`),
		chromedp.Click(`[data-testid="past-game-replay"]`),
		chromedp.WaitVisible(`[data-testid="replay"]`),
	)
	plies := eval[string](b, `document.querySelector('[data-testid="replay"]').dataset.plies`)
	waitFor(b, 5*time.Second, `document.querySelector('[data-testid="replay"]').dataset.ply == "`+plies+`"`)
	b.do(5*time.Second, chromedp.KeyEvent(kb.ArrowLeft))
	waitFor(b, 5*time.Second, `document.querySelector('[data-testid="replay"]').dataset.ply == "`+plies+`" - 1`)
	time.Sleep(300 * time.Millisecond)
	b.do(5*time.Second, chromedp.KeyEvent(kb.Home))
	waitFor(b, 5*time.Second, `document.querySelector('[data-testid="replay"]').dataset.ply == "0"`)
	time.Sleep(300 * time.Millisecond) // htmx processes the swapped links after settling
	b.do(5*time.Second, chromedp.KeyEvent(kb.ArrowRight))
	waitFor(b, 5*time.Second, `document.querySelector('[data-testid="replay"]').dataset.ply == "1" && location.search == "?ply=1"`)
	if href := eval[string](b, `document.querySelector('[data-testid="replay-pgn"]').getAttribute('href')`); !strings.HasSuffix(href, "/pgn") {
		t.Errorf("PGN link %q", href)
	}
}

// TestBrowserLoungeRefused: a new player has too few chips for Divan-ı
// Hümayun: the lobby says so, and sitting down anyway is refused with the
// reason.
func TestBrowserLoungeRefused(t *testing.T) {
	srv := startServer(t)
	a := newBrowser(t, "hale")
	signUp(a, srv, "hale")
	a.do(30*time.Second, chromedp.Navigate(srv.URL+"/lobby"), chromedp.WaitVisible(`[data-testid="lounges"]`))
	if got := eval[string](a, `document.querySelector('[data-testid="lounge-divan"]').dataset.refusal`); got != "not_enough_chips" {
		t.Errorf("divan refusal %q, want not_enough_chips", got)
	}
	if got := eval[string](a, `document.querySelector('[data-testid="refusal-divan"]').textContent`); !strings.Contains(got, "ten times") {
		t.Errorf("divan reason %q", got)
	}
	a.screenshot("lobby")
	joinLounge(a, srv, "divan", "5+0")
	waitFor(a, 10*time.Second, `document.querySelector('[data-testid="form-error"]')`)
	if got := eval[string](a, `document.querySelector('[data-testid="form-error"]').textContent`); !strings.Contains(got, "not have enough chips") {
		t.Errorf("refusal %q, want the chips reason", got)
	}
}

// TestBrowserLoungeSettles: two players sit in Kahvehane (stake 500) with
// their sign-up grant of 5,000 and play; Black resigns. The winner gets
// the pot of 1,000 less the 5% fee (50): 5,450; the loser keeps 4,500.
// Both balances show on their own pages.
func TestBrowserLoungeSettles(t *testing.T) {
	srv := startServer(t, "--bot-fill-after", "2m")
	a, b := newBrowser(t, "ilker"), newBrowser(t, "jale")
	signUp(a, srv, "ilker")
	signUp(b, srv, "jale")
	white, black := pairUp(t, a, b, func(x *browser) { joinLounge(x, srv, "kahvehane", "5+0") })
	playMoves(t, white, black, 0, "d2d4", "d7d5", "c2c4", "e7e6")
	resignGame(black)
	checkEnd(t, [2]string{"resignation", "1-0"}, white, black)
	// White's page drew the result panel from the end's delta: the
	// chips won, the rating and the experience read as a fresh load's.
	waitFor(white, 10*time.Second, `!document.querySelector('[data-settled="false"]')`)
	if got := eval[string](white, `document.querySelector('[data-testid="result-chips"]').dataset.diff`); got != "450" {
		t.Errorf("White's result panel shows chips %q, want 450", got)
	}
	matchFreshLoad(t, white, "after Black resigned")
	for _, c := range []struct {
		b    *browser
		want string
	}{{white, "5,450"}, {black, "4,500"}} {
		c.b.do(20*time.Second, chromedp.Navigate(srv.URL+"/lobby"), chromedp.WaitVisible(`[data-testid="balance"]`))
		if got := eval[string](c.b, `document.querySelector('[data-testid="balance"]').textContent`); !strings.Contains(got, c.want) {
			t.Errorf("%s: lobby balance %q, want %s", c.b.name, got, c.want)
		}
		checkProfileBalance(t, c.b, srv, c.want)
	}
}

// checkProfileBalance checks the chip balance on b's own profile page.
func checkProfileBalance(t *testing.T, b *browser, srv *server, want string) {
	t.Helper()
	b.do(20*time.Second, chromedp.Navigate(srv.URL+"/players/"+b.name), chromedp.WaitVisible(`[data-testid="profile-balance"]`))
	if got := eval[string](b, `document.querySelector('[data-testid="profile-balance"]').textContent`); !strings.Contains(got, want) {
		t.Errorf("%s: profile balance %q, want %s", b.name, got, want)
	}
}

// playAny has b play the first legal move at ply by clicking. The bot may
// answer, and the stream replace the board, at any moment: a click that
// falls on a board being replaced is lost, so it tries again.
func playAny(b *browser, ply int) {
	b.t.Helper()
	for range 3 {
		waitMyTurn(b, ply)
		legal := strings.Fields(eval[string](b, `document.querySelector('.board').dataset.legal`))
		clickMove(b, legal[0][:2], legal[0][2:4])
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) {
			if eval[string](b, `document.querySelector('[data-testid="game-panel"]').dataset.ply`) != strconv.Itoa(ply) {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	b.t.Fatalf("%s: the move at ply %d did not go through", b.name, ply)
}
