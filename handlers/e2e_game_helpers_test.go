//go:build e2e

package handlers_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

const password = "correct horse battery"

// signUp creates the account name in b's browser and leaves it logged in.
func signUp(b *browser, srv *server, name string) {
	b.t.Helper()
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/signup"),
		chromedp.WaitVisible(`[data-testid="signup-form"]`),
		chromedp.SendKeys(`[data-testid="signup-form"] [data-testid="username"]`, name),
		chromedp.SendKeys(`[data-testid="signup-form"] [data-testid="password"]`, password),
		chromedp.Click(`[data-testid="signup-form"] [data-testid="submit"]`),
		chromedp.WaitVisible(`[data-testid="nav-profile"]`),
	)
}

// gameURL returns the game page b shows.
func gameURL(b *browser) string {
	b.t.Helper()
	return eval[string](b, `location.origin + location.pathname`)
}

// waitFor polls a JavaScript condition in b's page until it is true.
func waitFor(b *browser, timeout time.Duration, cond string) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		// A page being replaced has no elements for a moment, and an
		// evaluation may wait while it loads: both are "not yet".
		ok, err := tryEval[bool](b, "(function(){try{return !!("+cond+")}catch(e){return false}})()", max(time.Until(deadline), time.Second))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%s: waited %v for %s (last evaluation: %v)", b.name, timeout, cond, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitedFor polls a JavaScript condition in b's page for up to timeout
// and reports whether it became true.
func waitedFor(b *browser, timeout time.Duration, cond string) bool {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		ok, err := tryEval[bool](b, "(function(){try{return !!("+cond+")}catch(e){return false}})()", max(time.Until(deadline), time.Second))
		if err == nil && ok {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// waitPly waits until b's page shows the game after ply half-moves.
func waitPly(b *browser, ply int) {
	b.t.Helper()
	waitFor(b, 20*time.Second, fmt.Sprintf(`document.querySelector('[data-testid="game-panel"]') && document.querySelector('[data-testid="game-panel"]').dataset.ply == "%d"`, ply))
}

// waitMyTurn waits until b's board takes a move at ply.
func waitMyTurn(b *browser, ply int) {
	b.t.Helper()
	waitFor(b, 30*time.Second, fmt.Sprintf(`(function(){var g=document.querySelector('[data-testid="game-panel"]'); var bd=document.querySelector('.board'); return g && g.dataset.ply=="%d" && bd && bd.dataset.interactive=="true"})()`, ply))
}

// squareCenter returns the page coordinates of the middle of a square.
func squareCenter(b *browser, sq string) (float64, float64) {
	b.t.Helper()
	xy := eval[[]float64](b, fmt.Sprintf(`(function(){var r=document.querySelector('.board [data-square="%s"]').getBoundingClientRect(); return [r.left+r.width/2, r.top+r.height/2]})()`, sq))
	return xy[0], xy[1]
}

// clickSquare clicks the middle of a square.
func clickSquare(b *browser, sq string) {
	b.t.Helper()
	x, y := squareCenter(b, sq)
	b.do(10*time.Second, chromedp.MouseClickXY(x, y))
}

// clickMove plays a move by clicking its two squares.
func clickMove(b *browser, from, to string) {
	b.t.Helper()
	clickSquare(b, from)
	clickSquare(b, to)
}

// dragMove plays a move by dragging the piece from one square to another
// with the mouse, in small steps as a hand would.
func dragMove(b *browser, from, to string) {
	b.t.Helper()
	x0, y0 := squareCenter(b, from)
	x1, y1 := squareCenter(b, to)
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0, y0),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	}
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		steps = append(steps, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	b.do(10*time.Second, steps...)
}

// status returns the game's status line.
func status(b *browser) string {
	b.t.Helper()
	return strings.TrimSpace(eval[string](b, `document.querySelector('[data-testid="status"]').textContent`))
}

// moves returns the moves shown in the move list.
func moves(b *browser) []string {
	b.t.Helper()
	return eval[[]string](b, `Array.from(document.querySelectorAll('[data-testid="move"]')).map(e => e.textContent.trim())`)
}

// startPractice starts a practice game from the new-game page.
func startPractice(b *browser, srv *server, level, control, color string) {
	b.t.Helper()
	b.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/play"),
		chromedp.WaitVisible(`[data-testid="practice-form"]`),
		chromedp.SetValue(`[data-testid="practice-level"]`, level),
		chromedp.SetValue(`[data-testid="practice-control"]`, control),
		chromedp.SetValue(`[data-testid="practice-color"]`, color),
		chromedp.Click(`[data-testid="practice-start"]`),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
}

// clickInPanel clicks sel, an element of the panel the event stream
// redraws: a redraw between finding the element and clicking it loses the
// node, so the click is tried again on the new one.
func clickInPanel(b *browser, sel string) {
	b.t.Helper()
	var err error
	for range 5 {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		err = chromedp.Do(ctx, chromedp.WaitVisible(sel), chromedp.Click(sel))
		cancel()
		if err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Fatalf("%s: click %s: %v", b.name, sel, err)
}

// resignGame resigns (or aborts) b's game with the button and its
// confirmation. The stream may redraw the controls between the two clicks,
// closing the confirmation, so the button is clicked again only when the
// confirmation is not showing: a click on an open one would close it.
// Whether it shows is the <details> element's own state: Chromium lays out
// the content of a closed one, so the confirmation has a box either way.
func resignGame(b *browser) {
	b.t.Helper()
	const open, confirm = `[data-testid="resign-open"]`, `[data-testid="resign-confirm"]`
	showing := `(function(){var d = document.querySelector('[data-testid="resign"]'); return !!d && d.open})()`
	var err error
	for range 5 {
		if !eval[bool](b, showing) {
			clickInPanel(b, open)
		}
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		err = chromedp.Do(ctx, chromedp.WaitVisible(confirm), chromedp.Click(confirm))
		cancel()
		if err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Fatalf("%s: resign: %v", b.name, err)
}
