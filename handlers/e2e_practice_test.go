//go:build e2e

package handlers_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPracticeGame plays a practice game against Easy: the bot
// answers every move; the human resigns and the page shows the result.
func TestBrowserPracticeGame(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "ayse")
	signUp(b, srv, "ayse")
	startPractice(b, srv, "easy", "5+0", "white")

	plan := [][2]string{{"e2", "e4"}, {"g1", "f3"}, {"f1", "c4"}, {"b1", "c3"}}
	for i, mv := range plan {
		ply := 2 * i
		waitMyTurn(b, ply)
		from, to := mv[0], mv[1]
		if legal := legalMoves(b); !slices.Contains(legal, from+to) {
			// The computer's reply made the planned move illegal (a check
			// such as ...Bxf2+, a pin): play a legal one the same way.
			from, to = legal[0][:2], legal[0][2:4]
		}
		if i%2 == 0 {
			dragMove(b, from, to)
		} else {
			clickMove(b, from, to)
		}
		waitPly(b, ply+2) // the bot has answered
	}
	if got := moves(b); len(got) != 8 {
		t.Fatalf("move list after 4 moves each: %q", got)
	}

	// The keyboard way: an illegal typed move is refused with a message and
	// the text kept; a legal one is played with the current ply. The
	// computer's replies vary (after ...Bb4 and ...Bxc3 the d pawn is
	// pinned; after a check no pawn move may be legal), so the move typed
	// is one the board lists as legal.
	waitMyTurn(b, 8)
	b.do(10*time.Second,
		chromedp.SendKeys(`[data-testid="move-input"]`, "Qh8"),
		chromedp.Click(`[data-testid="move-submit"]`),
	)
	waitFor(b, 10*time.Second, `document.querySelector('[data-testid="move-error"]').textContent.trim() != ""`)
	if got := eval[string](b, `document.querySelector('[data-testid="move-input"]').value`); got != "Qh8" {
		t.Errorf("typed text after a refused move = %q, want it kept", got)
	}
	eval[string](b, `document.querySelector('[data-testid="move-input"]').value = ""`)
	typed, want := typableMove(b)
	b.do(10*time.Second,
		chromedp.SendKeys(`[data-testid="move-input"]`, typed),
		chromedp.Click(`[data-testid="move-submit"]`),
	)
	waitPly(b, 10)
	if got := moves(b); want != "" && got[8] != want {
		t.Errorf("typed move %s shown as %q, want %s", typed, got[8], want)
	}
	resignGame(b)
	waitFor(b, 10*time.Second, `document.querySelector('[data-testid="game-panel"]').dataset.status == "finished"`)
	if got := eval[string](b, `document.querySelector('[data-testid="status"]').dataset.reason`); got != "resignation" {
		t.Errorf("reason = %q, want resignation; status line %q", got, status(b))
	}
	if got := eval[string](b, `document.querySelector('[data-testid="status"]').dataset.result`); got != "0-1" {
		t.Errorf("result = %q, want 0-1", got)
	}
	b.screenshot("finished")
}

// typableMove returns a move to type on the live board, from its legal
// moves: a quiet pawn move in SAN with the SAN the move list will show,
// or when none is legal (the king in check) the first legal move in UCI,
// whose SAN the test does not know ("").
func typableMove(b *browser) (typed, san string) {
	b.t.Helper()
	legal := legalMoves(b)
	for _, c := range []struct{ uci, san string }{{"h2h3", "h3"}, {"a2a3", "a3"}, {"g2g3", "g3"}, {"h2h4", "h4"}, {"a2a4", "a4"}} {
		if slices.Contains(legal, c.uci) {
			return c.san, c.san
		}
	}
	return legal[0], ""
}

// legalMoves returns the legal moves the live board lists, in UCI; the
// test fails if there are none (it is the player's turn).
func legalMoves(b *browser) []string {
	b.t.Helper()
	legal := strings.Fields(eval[string](b, `document.getElementById('game-board').dataset.legal || ''`))
	if len(legal) == 0 {
		b.t.Fatal("no legal moves on the live board")
	}
	return legal
}
