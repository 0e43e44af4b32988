//go:build e2e

package handlers_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// twoPlayers starts a server (with extra serve arguments) and a private game
// with control between two new members.
func twoPlayers(t *testing.T, control string, args ...string) (white, black *browser) {
	t.Helper()
	srv := startServer(t, args...)
	a, b := newBrowser(t, "alice"), newBrowser(t, "bob")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	return startPrivateGame(t, srv, a, b, control)
}

// TestBrowserDrawByAgreement: White offers a draw after both have moved,
// Black accepts.
func TestBrowserDrawByAgreement(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	playMoves(t, white, black, 0, "e2e4", "e7e5")
	clickInPanel(white, `[data-testid="draw-offer"]`)
	black.do(20*time.Second, chromedp.WaitVisible(`[data-testid="draw-accept"]`))
	clickInPanel(black, `[data-testid="draw-accept"]`)
	checkEnd(t, [2]string{"agreement", "1/2-1/2"}, white, black)
}

// TestBrowserResignation: Black resigns, with the confirmation, after both
// players have made two moves (with fewer the game would be aborted).
func TestBrowserResignation(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	playMoves(t, white, black, 0, "d2d4", "d7d5", "c2c4", "e7e6")
	resignGame(black)
	checkEnd(t, [2]string{"resignation", "1-0"}, white, black)
}

// TestBrowserTimeout: in a 1+0 game White stops moving and loses on time.
func TestBrowserTimeout(t *testing.T) {
	white, black := twoPlayers(t, "1+0")
	playMoves(t, white, black, 0, "e2e4", "e7e5", "g1f3", "b8c6")
	// Between moves the stream sends the clocks again: the marked element
	// is replaced by a fresh one.
	eval[string](black, `document.querySelector('[data-testid="clock-white"]').dataset.old = "1"`)
	waitFor(black, 15*time.Second, `!document.querySelector('[data-testid="clock-white"]').dataset.old`)
	// White's running clock counts down on the page between two server
	// updates: the text of the same element (not one the stream replaced)
	// changes.
	ctx, cancel := context.WithTimeout(white.ctx, 30*time.Second)
	defer cancel()
	smooth, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(function (resolve) {
		var q = function () { return document.querySelector('[data-testid="clock-white"]') };
		var el = q(), text = el && el.textContent, t0 = Date.now();
		(function poll() {
			var cur = q();
			if (cur && cur !== el) { el = cur; text = cur.textContent }
			else if (cur && cur.textContent !== text) { resolve(true); return }
			if (Date.now() - t0 > 20000) { resolve(false); return }
			setTimeout(poll, 50);
		})();
	})`, chromedp.EvalAwaitPromise))
	if err != nil || !smooth {
		t.Errorf("White's running clock did not count down between server updates (%v)", err)
	}
	// The running clock turns red under 30 s and pulses under 10 s.
	waitFor(white, 45*time.Second, `document.querySelector('[data-testid="clock-white"]').classList.contains("clock-low")`)
	waitFor(white, 30*time.Second, `document.querySelector('[data-testid="clock-white"]').classList.contains("clock-critical")`)
	checkEnd(t, [2]string{"timeout", "0-1"}, white, black)
}

// TestBrowserUnderpromotion: a pawn promotes to a knight, chosen in the
// picker that opens on the promotion square.
func TestBrowserUnderpromotion(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	playMoves(t, white, black, 0, "a2a4", "b7b5", "a4b5", "a7a6", "b5a6", "c8b7", "a6b7", "b8c6", "b7a8n")
	for _, b := range []*browser{white, black} {
		if got := moves(b); got[len(got)-1] != "bxa8=N" {
			t.Errorf("%s: last move %q, want bxa8=N", b.name, got[len(got)-1])
		}
		if p := eval[string](b, `document.querySelector('.board [data-square="a8"] .piece').dataset.piece`); p != "wN" {
			t.Errorf("%s: a8 holds %q, want a white knight", b.name, p)
		}
	}
	white.screenshot("promoted")
	resignGame(black)
	checkEnd(t, [2]string{"resignation", "1-0"}, white, black)
}

// TestBrowserCastleOntoRook: White castles short by dropping the king on
// its own rook; Black castles long by clicking the king and the square two
// files away, which is marked as a destination, as is the rook's.
func TestBrowserCastleOntoRook(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	playMoves(t, white, black, 0, "e2e4", "d7d6", "g1f3", "c8e6", "f1c4", "b8c6")
	waitMyTurn(white, 6)
	dragMove(white, "e1", "h1")
	playMoves(t, white, black, 7, "d8d7", "d2d3")
	waitMyTurn(black, 9)
	clickSquare(black, "e8")
	for _, sq := range []string{"c8", "a8", "d8"} {
		waitFor(black, 5*time.Second, `document.querySelector('.board [data-square="`+sq+`"]').matches(".sq-target, .sq-target-capture")`)
	}
	clickSquare(black, "c8")
	waitPly(white, 10)
	waitPly(black, 10)
	for _, b := range []*browser{white, black} {
		if got := strings.Join(moves(b), " "); got != "e4 d6 Nf3 Be6 Bc4 Nc6 O-O Qd7 d3 O-O-O" {
			t.Errorf("%s: moves %q, want both castlings", b.name, got)
		}
		for sq, want := range map[string]string{"g1": "wK", "f1": "wR", "c8": "bK", "d8": "bR"} {
			if got := eval[string](b, `document.querySelector('.board [data-square="`+sq+`"] .piece').dataset.piece`); got != want {
				t.Errorf("%s: %s holds %q, want %q", b.name, sq, got, want)
			}
		}
	}
	resignGame(white)
	checkEnd(t, [2]string{"resignation", "0-1"}, white, black)
}

// TestBrowserDisconnection: Black closes the page mid-game; White sees the
// countdown and wins when it runs out (5 s here; 45 s by default).
func TestBrowserDisconnection(t *testing.T) {
	white, black := twoPlayers(t, "5+0", "--disconnect-grace", "5s")
	playMoves(t, white, black, 0, "e2e4", "e7e5", "g1f3", "b8c6")
	black.do(10*time.Second, chromedp.Navigate("about:blank"))
	waitFor(white, 15*time.Second, `document.querySelector('[data-testid="opponent-countdown"]')`)
	white.screenshot("countdown")
	checkEnd(t, [2]string{"disconnected", "1-0"}, white)
}

// TestBrowserNoJavaScript: with JavaScript off the game page is a plain
// form, and a move typed in SAN is played.
func TestBrowserNoJavaScript(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "nojs", chromedp.Flag("blink-settings", "scriptEnabled=false"))
	signUp(b, srv, "nojs")
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/play"),
		chromedp.WaitVisible(`[data-testid="practice-form"]`),
		chromedp.SetValue(`[data-testid="practice-level"]`, "easy"),
		chromedp.SetValue(`[data-testid="practice-control"]`, "untimed"),
		chromedp.SetValue(`[data-testid="practice-color"]`, "white"),
		chromedp.Click(`[data-testid="practice-start"]`),
		chromedp.WaitVisible(`[data-testid="move-input"]`),
		chromedp.SendKeys(`[data-testid="move-input"]`, "Nf3"),
		chromedp.Click(`[data-testid="move-submit"]`),
		chromedp.WaitVisible(`[data-testid="move"]`),
	)
	first, err := chromedp.Run(b.ctx, chromedp.Text(`[data-testid="move"]`))
	if err != nil {
		t.Fatal(err)
	}
	// Evaluations from the test still run; the page's own scripts did not.
	if got := eval[string](b, `typeof window.htmx`); got != "undefined" {
		t.Fatalf("htmx is %s: JavaScript is on", got)
	}
	if strings.TrimSpace(first) != "Nf3" {
		t.Errorf("first move shown = %q, want Nf3", first)
	}
	b.screenshot("typed")
	// Resigning works by the plain form too; after one move it aborts the
	// game, and the page says who aborted it.
	resignGame(b)
	if reason, _ := endOf(b); reason != "aborted" || !strings.Contains(status(b), "aborted by White") {
		t.Errorf("after resigning: reason %q, status %q; want the game aborted by White", reason, status(b))
	}
	b.screenshot("finished")
}

// TestBrowserSelectionSurvivesRedraw: White picks a piece, then the panel
// is redrawn by the stream (Black's page goes away, so White sees the
// countdown); White's second click still plays the move.
func TestBrowserSelectionSurvivesRedraw(t *testing.T) {
	white, black := twoPlayers(t, "5+0", "--disconnect-grace", "30s")
	playMoves(t, white, black, 0, "e2e4", "e7e5")
	waitMyTurn(white, 2)
	clickSquare(white, "g1")
	waitFor(white, 5*time.Second, `document.querySelector('.board [data-square="g1"]').classList.contains("sq-selected")`)
	eval[string](white, `document.querySelector('.board').dataset.old = "1"`)
	black.do(10*time.Second, chromedp.Navigate("about:blank"))
	waitFor(white, 15*time.Second, `document.querySelector('[data-testid="opponent-countdown"]') && !document.querySelector('.board').dataset.old`)
	clickSquare(white, "f3")
	waitPly(white, 3)
	if got := moves(white); got[len(got)-1] != "Nf3" {
		t.Errorf("last move %q, want Nf3", got[len(got)-1])
	}
}

// TestBrowserLeaveAndRematch: White opens "leave the table", which asks
// first, confirms and loses; both then ask for a rematch, which starts with
// the colours swapped and is played.
func TestBrowserLeaveAndRematch(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	playMoves(t, white, black, 0, "e2e4", "e7e5", "g1f3", "b8c6")
	waitMyTurn(white, 4)
	first := gameURL(white)
	white.do(10*time.Second,
		chromedp.Click(`[data-testid="leave-open"]`),
		chromedp.WaitVisible(`[data-testid="leave-confirm"]`),
	)
	if st := eval[string](white, `document.querySelector('[data-testid="game-panel"]').dataset.status`); st != "active" {
		t.Fatalf("the game is %q before the leaving is confirmed", st)
	}
	white.do(10*time.Second, chromedp.Click(`[data-testid="leave-confirm"]`))
	checkEnd(t, [2]string{"left_table", "0-1"}, white, black)

	clickInPanel(white, `[data-testid="rematch"]`)
	white.do(20*time.Second, chromedp.WaitVisible(`[data-testid="rematch-pending"]`))
	black.do(20*time.Second, chromedp.WaitVisible(`[data-testid="rematch-offered"]`))
	clickInPanel(black, `[data-testid="rematch"]`)
	// White's page goes to the rematch by itself (the stream's rematch
	// event), as Black's does after accepting.
	for _, b := range []*browser{white, black} {
		waitFor(b, 20*time.Second, `location.origin + location.pathname != "`+first+`" && document.querySelector('[data-testid="game-panel"]').dataset.status == "active"`)
	}
	if a, b := gameURL(white), gameURL(black); a != b {
		t.Fatalf("after the rematch the players are at %s and %s", a, b)
	}
	if c := eval[string](white, `document.querySelector('.board').dataset.color`); c != "b" {
		t.Errorf("the first game's White plays %q in the rematch, want Black", c)
	}
	if c := eval[string](black, `document.querySelector('.board').dataset.color`); c != "w" {
		t.Errorf("the first game's Black plays %q in the rematch, want White", c)
	}
	playMoves(t, black, white, 0, "d2d4", "d7d5")
	black.screenshot("rematch")
}
