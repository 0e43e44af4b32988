//go:build e2e

package handlers_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// tryItPage is the rules page open in one browser, in one language.
type tryItPage struct {
	b    *browser
	lang string
}

// openRules opens /rules?lang=lang and waits until tryit.js has set up
// the boards (it shows the reset buttons).
func openRules(t *testing.T, b *browser, base, lang string) *tryItPage {
	t.Helper()
	b.do(30*time.Second,
		chromedp.Navigate(base+"/rules?lang="+lang),
		chromedp.WaitVisible(`[data-testid="tryit-promotion"] [data-testid="tryit-reset"]`),
	)
	if got := eval[string](b, `document.documentElement.lang`); got != lang {
		t.Fatalf("rules page lang = %q, want %q", got, lang)
	}
	return &tryItPage{b: b, lang: lang}
}

// fig is the CSS selector of try-it board name.
func fig(name string) string { return `[data-testid="tryit-` + name + `"]` }

// center scrolls try-it board name into the middle of the view and returns
// the viewport coordinates of the centre of its square sq. (Scrolling to
// the whole board keeps the page still between two squares' calls.)
func (p *tryItPage) center(name, sq string) (x, y float64) {
	p.b.t.Helper()
	xy := eval[[]float64](p.b, fmt.Sprintf(`(() => {
		const el = document.querySelector('%s .tryit-board [data-square="%s"]');
		el.closest(".board").scrollIntoView({block: "center"});
		const r = el.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`, fig(name), sq))
	return xy[0], xy[1]
}

// drag drags the piece on from to the square to with the mouse, in steps.
func (p *tryItPage) drag(name, from, to string) {
	p.b.t.Helper()
	x0, y0 := p.center(name, from)
	x1, y1 := p.center(name, to)
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.MouseEvent(chromedp.MouseMoved, x0, y0),
		chromedp.MouseEvent(chromedp.MousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	}
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	p.b.do(10*time.Second, steps...)
}

// clickClick moves the piece on from to the square to by two clicks.
func (p *tryItPage) clickClick(name, from, to string) {
	p.b.t.Helper()
	x0, y0 := p.center(name, from)
	p.b.do(10*time.Second, chromedp.MouseClickXY(x0, y0))
	x1, y1 := p.center(name, to)
	p.b.do(10*time.Second, chromedp.MouseClickXY(x1, y1))
}

// promote chooses piece letter (q r b n) in the open promotion picker.
func (p *tryItPage) promote(name, letter string) {
	p.b.t.Helper()
	sel := fig(name) + ` .tryit-board .promotion-picker [data-promotion="` + letter + `"]`
	p.b.do(10*time.Second, chromedp.WaitVisible(sel), chromedp.Click(sel))
}

// piece returns the piece code on square sq of try-it board name, "" for
// an empty square.
func (p *tryItPage) piece(name, sq string) string {
	p.b.t.Helper()
	return eval[string](p.b, fmt.Sprintf(`(() => {
		const img = document.querySelector('%s .tryit-board [data-square="%s"] .piece');
		return img ? img.dataset.piece : "";
	})()`, fig(name), sq))
}

// waitState waits until try-it board name's data-state is state.
func (p *tryItPage) waitState(name, state string) {
	p.b.t.Helper()
	p.b.do(10*time.Second, chromedp.Poll[chromedp.Void](
		fmt.Sprintf(`document.querySelector('%s').dataset.state === %q`, fig(name), state),
		chromedp.WithPollingTimeout(5*time.Second)))
}

// waitPieces waits until the squares of try-it board name hold the pieces
// in want (square → piece code, "" for empty).
func (p *tryItPage) waitPieces(name string, want map[string]string) {
	p.b.t.Helper()
	var conds []string
	for sq, pc := range want {
		conds = append(conds, fmt.Sprintf(`((document.querySelector('%s .tryit-board [data-square="%s"] .piece') || {dataset: {piece: ""}}).dataset.piece === %q)`, fig(name), sq, pc))
	}
	ctxSteps := chromedp.Poll[chromedp.Void](strings.Join(conds, " && "), chromedp.WithPollingTimeout(5*time.Second))
	p.b.do(10*time.Second, ctxSteps)
}

// shown returns the visible feedback of try-it board name: "praise",
// "wrong", "hint", or "" for none, with its text.
func (p *tryItPage) shown(name string) (kind, text string) {
	p.b.t.Helper()
	r := eval[[]string](p.b, fmt.Sprintf(`(() => {
		const f = document.querySelector('%s');
		const v = [...f.querySelectorAll('[data-tryit-praise], [data-tryit-hint], [data-tryit-wrong]')].filter(e => !e.hidden);
		if (v.length !== 1) return [String(v.length), ""];
		const e = v[0];
		const kind = e.hasAttribute('data-tryit-praise') ? 'praise' : e.hasAttribute('data-tryit-hint') ? 'hint' : 'wrong';
		return [kind, e.textContent.trim()];
	})()`, fig(name)))
	return r[0], r[1]
}

// expectShown fails unless try-it board name shows the feedback kind with
// a text containing want.
func (p *tryItPage) expectShown(name, kind, want string) {
	p.b.t.Helper()
	k, text := p.shown(name)
	if k != kind || !strings.Contains(text, want) {
		p.b.t.Errorf("%s %s: shows %s %q, want %s containing %q", p.lang, name, k, text, kind, want)
	}
}

// reset presses try-it board name's reset button.
func (p *tryItPage) reset(name string) {
	p.b.t.Helper()
	p.b.do(10*time.Second, chromedp.Click(fig(name)+` [data-testid="tryit-reset"]`))
	p.waitState(name, "")
	if k, text := p.shown(name); k != "0" {
		p.b.t.Errorf("%s %s: after reset, %s %q still shows", p.lang, name, k, text)
	}
}

// castled is the castling board after O-O.
var castled = map[string]string{"e1": "", "f1": "wR", "g1": "wK", "h1": ""}

// castlingStart is the castling board before the move.
var castlingStart = map[string]string{"e1": "wK", "f1": "", "g1": "", "h1": "wR"}

func TestBrowserRulesTryItEnglish(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "guest-en")
	p := openRules(t, b, srv.URL, "en")

	// The marked piece is highlighted.
	if n := eval[int](b, `document.querySelectorAll('.tryit .sq-mark').length`); n != 3 {
		t.Errorf("%d marked squares, want 3", n)
	}

	// Castling: a wrong king step is explained and taken back, then the
	// king dragged two squares castles.
	p.clickClick("castling", "e1", "f1")
	p.waitState("castling", "wrong")
	p.expectShown("castling", "wrong", "ordinary king move")
	p.waitPieces("castling", castlingStart)
	p.drag("castling", "e1", "g1")
	p.waitState("castling", "solved")
	p.expectShown("castling", "praise", "Well done")
	p.waitPieces("castling", castled)
	b.screenshot("castled")

	// Reset starts over, and the king dropped on its rook castles too.
	p.reset("castling")
	p.waitPieces("castling", castlingStart)
	p.drag("castling", "e1", "h1")
	p.waitState("castling", "solved")
	p.waitPieces("castling", castled)

	// En passant by click-click, after a wrong push.
	p.clickClick("en_passant", "e5", "e6")
	p.waitState("en_passant", "wrong")
	p.expectShown("en_passant", "wrong", "captures nothing")
	p.waitPieces("en_passant", map[string]string{"e5": "wP", "e6": "", "d5": "bP"})
	p.clickClick("en_passant", "e5", "d6")
	p.waitState("en_passant", "solved")
	p.expectShown("en_passant", "praise", "d6")
	p.waitPieces("en_passant", map[string]string{"e5": "", "d6": "wP", "d5": ""})

	// Promotion: an under-promotion is explained, the queen is praised.
	p.clickClick("promotion", "b7", "b8")
	p.promote("promotion", "n")
	p.waitState("promotion", "wrong")
	p.expectShown("promotion", "hint", "queen is the strongest")
	p.waitPieces("promotion", map[string]string{"b7": "wP", "b8": ""})
	p.drag("promotion", "b7", "b8")
	p.promote("promotion", "q")
	p.waitState("promotion", "solved")
	p.expectShown("promotion", "praise", "queen")
	p.waitPieces("promotion", map[string]string{"b7": "", "b8": "wQ"})
	b.screenshot("solved")

	// Reset brings the pawn back.
	p.reset("promotion")
	p.waitPieces("promotion", map[string]string{"b7": "wP", "b8": ""})
}

func TestBrowserRulesTryItTurkish(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "guest-tr")
	p := openRules(t, b, srv.URL, "tr")

	// Castling by click-click onto the rook, after a wrong drag.
	p.drag("castling", "e1", "e2")
	p.waitState("castling", "wrong")
	p.expectShown("castling", "wrong", "sıradan bir şah hamlesi")
	p.waitPieces("castling", castlingStart)
	p.clickClick("castling", "e1", "h1")
	p.waitState("castling", "solved")
	p.expectShown("castling", "praise", "Tebrikler")
	p.waitPieces("castling", castled)

	// Reset, then castle by click-click two squares.
	p.reset("castling")
	p.waitPieces("castling", castlingStart)
	p.clickClick("castling", "e1", "g1")
	p.waitState("castling", "solved")
	p.waitPieces("castling", castled)

	// En passant by drag.
	p.drag("en_passant", "e5", "d6")
	p.waitState("en_passant", "solved")
	p.expectShown("en_passant", "praise", "Tebrikler")
	p.waitPieces("en_passant", map[string]string{"e5": "", "d6": "wP", "d5": ""})

	// Promotion by click-click and the picker's queen.
	p.clickClick("promotion", "b7", "b8")
	p.promote("promotion", "q")
	p.waitState("promotion", "solved")
	p.expectShown("promotion", "praise", "vezire")
	p.waitPieces("promotion", map[string]string{"b7": "", "b8": "wQ"})
	b.screenshot("solved")

	// A wrong move after a reset is explained in Turkish.
	p.reset("promotion")
	p.drag("promotion", "b7", "b8")
	p.promote("promotion", "r")
	p.waitState("promotion", "wrong")
	p.expectShown("promotion", "hint", "veziri seçin")
}

// TestBrowserRulesPhone checks that the rules page fits a phone's width
// (nothing is wider than the screen), and that the footer shows the
// support contact given to serve.
func TestBrowserRulesPhone(t *testing.T) {
	srv := startServer(t, "--support", "help@example.org")
	b := newBrowser(t, "phone", chromedp.WindowSize(375, 740))
	openRules(t, b, srv.URL, "tr")
	if w := eval[int](b, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("the rules page is %d px wider than a phone's screen", w)
	}
	if href := eval[string](b, `(document.querySelector('[data-testid="footer-support"] a') || {}).href || ""`); href != "mailto:help@example.org" {
		t.Errorf("footer support link = %q, want mailto:help@example.org", href)
	}
	b.screenshot("phone")
}
