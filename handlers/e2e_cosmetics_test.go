//go:build e2e

package handlers_test

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserCosmetics is the figure of issue 7 for cosmetics: choosing a
// board theme and a piece set on the settings page changes how the game's
// board looks in a real browser (a square's computed colour, the pieces'
// images), also after the event stream redraws it and on the rules page's
// try-it boards, while the board's legal moves stay the same. An item not
// owned cannot be chosen.
func TestBrowserCosmetics(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "ece")
	signUp(b, srv, "ece")
	startPractice(b, srv, "easy", "untimed", "white")
	game := gameURL(b)
	waitMyTurn(b, 0)

	type look struct{ theme, light, dark, piece, legal string }
	read := func() look {
		b.t.Helper()
		return look{
			theme: eval[string](b, `document.querySelector('.board').dataset.theme`),
			light: eval[string](b, `getComputedStyle(document.querySelector('.board [data-square="e4"]')).backgroundColor`),
			dark:  eval[string](b, `getComputedStyle(document.querySelector('.board [data-square="d4"]')).backgroundColor`),
			piece: eval[string](b, `document.querySelector('.board [data-square="a1"] img.piece').getAttribute('src')`),
			legal: eval[string](b, `document.querySelector('.board').dataset.legal`),
		}
	}
	before := read()
	if before.theme != "board_classic" || before.light != "rgb(240, 217, 181)" || !strings.HasPrefix(before.piece, "/static/img/pieces/sultan/wR.svg") {
		t.Fatalf("default look: %+v", before)
	}
	if len(strings.Fields(before.legal)) != 20 {
		t.Fatalf("legal moves at the start: %q, want 20", before.legal)
	}

	b.do(20*time.Second,
		chromedp.Navigate(srv.URL+"/settings"),
		chromedp.WaitVisible(`[data-testid="settings-form"]`),
	)
	if !eval[bool](b, `document.querySelector('[data-testid="item-frame_cup_gold"]').disabled && document.querySelector('[data-testid="item-board_iznik"]').disabled`) {
		t.Error("items the member does not own can be chosen")
	}
	b.do(20*time.Second,
		chromedp.Click(`[data-testid="item-board_walnut"]`),
		chromedp.Click(`[data-testid="item-pieces_flat"]`),
		chromedp.Click(`[data-testid="settings-save"]`),
		chromedp.WaitVisible(`[data-testid="settings-saved"]`),
	)
	b.screenshot("settings")

	b.do(20*time.Second, chromedp.Navigate(game), chromedp.WaitVisible(`[data-testid="game-panel"]`))
	waitMyTurn(b, 0)
	after := read()
	want := look{theme: "board_walnut", light: "rgb(226, 196, 154)", dark: "rgb(126, 79, 44)", legal: before.legal}
	if after.theme != want.theme || after.light != want.light || after.dark != want.dark || after.legal != want.legal ||
		!strings.HasPrefix(after.piece, "/static/img/pieces/flat/wR.svg") {
		t.Errorf("after choosing walnut and the flat pieces: %+v, want %+v with the flat rook", after, want)
	}
	if after.light == before.light || after.dark == before.dark {
		t.Errorf("the squares' colours did not change: %s/%s before, %s/%s after", before.light, before.dark, after.light, after.dark)
	}

	// The stream redraws the board after each move in the same look.
	clickMove(b, "g1", "f3")
	waitMyTurn(b, 2)
	redrawn := eval[string](b, `document.querySelector('.board [data-square="f3"] img.piece').getAttribute('src')`)
	if got := read(); got.theme != "board_walnut" || got.light != want.light || !strings.HasPrefix(redrawn, "/static/img/pieces/flat/wN.svg") {
		t.Errorf("board redrawn by the stream: %+v, knight on f3 %q; want walnut and the flat set", got, redrawn)
	}
	b.screenshot("game")

	b.do(20*time.Second, chromedp.Navigate(srv.URL+"/rules"), chromedp.WaitVisible(`[data-testid="tryit-castling"]`))
	tryit := eval[string](b, `getComputedStyle(document.querySelector('[data-testid="tryit-castling"] .board [data-square="e4"]')).backgroundColor`)
	if tryit != want.light {
		t.Errorf("rules page try-it board: e4 is %s, want walnut's %s", tryit, want.light)
	}
}

// TestBrowserFrameAtTable: an administrator gives a member the Daily Chess
// Cup's gold frame (satranc admin item, on the running server's database);
// the member chooses it in settings, and at the table their name is drawn
// in it: gold border, where before it had none.
func TestBrowserFrameAtTable(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "ece")
	signUp(b, srv, "ece")
	startPractice(b, srv, "easy", "untimed", "white")
	game := gameURL(b)
	border := func() string {
		b.t.Helper()
		return eval[string](b, `getComputedStyle(document.querySelector('[data-testid="player-name-white"]')).borderTopStyle + " " + getComputedStyle(document.querySelector('[data-testid="player-name-white"]')).borderTopColor`)
	}
	if got := border(); !strings.HasPrefix(got, "none") {
		t.Fatalf("name at the table before any frame: border %q, want none", got)
	}

	out, err := exec.Command(satrancBinary(t), "admin", "--db", srv.DB, "item", "ece", "frame_cup_gold", "browser", "test").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "gave frame_cup_gold to ece") {
		t.Fatalf("satranc admin item: %v: %s", err, out)
	}
	b.do(20*time.Second,
		chromedp.Navigate(srv.URL+"/settings"),
		chromedp.WaitVisible(`[data-testid="settings-form"]`),
	)
	if eval[bool](b, `document.querySelector('[data-testid="item-frame_cup_gold"]').disabled`) {
		t.Fatal("the given frame is still locked in settings")
	}
	b.do(20*time.Second,
		chromedp.Click(`[data-testid="item-frame_cup_gold"]`),
		chromedp.Click(`[data-testid="settings-save"]`),
		chromedp.WaitVisible(`[data-testid="settings-saved"]`),
		chromedp.Navigate(game),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
	if got := border(); got != "solid rgb(195, 154, 28)" {
		t.Errorf("name at the table in the gold frame: border %q, want solid rgb(195, 154, 28)", got)
	}
	b.screenshot("frame")
}
