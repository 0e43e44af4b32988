//go:build e2e

package handlers_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// touchDrag drags with one finger from one square to another.
func touchDrag(b *browser, from, to string) {
	b.t.Helper()
	x0, y0 := squareCenter(b, from)
	x1, y1 := squareCenter(b, to)
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	touch := func(typ input.DispatchTouchEventType, x, y float64) {
		p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{}}
		if typ != input.DispatchTouchEventTypeTouchEnd {
			p.TouchPoints = []*input.TouchPoint{{X: x, Y: y}}
		}
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, p); err != nil {
			b.t.Fatalf("%s: touch %s: %v", b.name, typ, err)
		}
	}
	touch(input.DispatchTouchEventTypeTouchStart, x0, y0)
	for i := 1; i <= 10; i++ {
		f := float64(i) / 10
		touch(input.DispatchTouchEventTypeTouchMove, x0+(x1-x0)*f, y0+(y1-y0)*f)
	}
	touch(input.DispatchTouchEventTypeTouchEnd, 0, 0)
}

// TestBrowserTouchDrag plays on a phone-sized touch screen: pieces are
// dragged with a finger, and the page does not scroll while they move.
func TestBrowserTouchDrag(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "phone")
	b.do(10*time.Second, chromedp.EmulateViewport(390, 700, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	signUp(b, srv, "phone")
	startPractice(b, srv, "easy", "5+0", "white")
	waitMyTurn(b, 0)
	// Scroll so that the board sits lower on the screen; a drag that
	// scrolled the page would move it.
	eval[float64](b, `window.scrollTo(0, 40); window.scrollY`)
	before := eval[float64](b, `window.scrollY`)
	touchDrag(b, "e2", "e4")
	waitPly(b, 2)
	if after := eval[float64](b, `window.scrollY`); after != before {
		t.Errorf("page scrolled from %v to %v while dragging", before, after)
	}
	if got := moves(b); len(got) < 1 || got[0] != "e4" {
		t.Errorf("moves after a touch drag: %q", got)
	}
	touchDrag(b, "g1", "f3")
	waitPly(b, 4)
	b.screenshot("phone")
}
