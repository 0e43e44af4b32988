//go:build e2e

package handlers_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// startPrivateGame has a create a private game with control and b join it
// by the invite link; it returns the browsers of White and Black.
func startPrivateGame(t *testing.T, srv *server, a, b *browser, control string) (white, black *browser) {
	t.Helper()
	return startPrivateGameVia(t, srv, srv.URL, a, b, control)
}

// startPrivateGameVia is startPrivateGame with b reaching the server at
// bBase (through a proxy) instead of srv.URL.
func startPrivateGameVia(t *testing.T, srv *server, bBase string, a, b *browser, control string) (white, black *browser) {
	t.Helper()
	a.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/play"),
		chromedp.WaitVisible(`[data-testid="private-form"]`),
		chromedp.SetValue(`[data-testid="private-control"]`, control),
		chromedp.Click(`[data-testid="private-start"]`),
		chromedp.WaitVisible(`[data-testid="invite-link"]`),
	)
	link := eval[string](a, `document.querySelector('[data-testid="invite-link"]').value`)
	link = bBase + strings.TrimPrefix(link, srv.URL)
	b.do(30*time.Second,
		chromedp.Navigate(link),
		chromedp.WaitVisible(`[data-testid="invite-join"]`),
		chromedp.Click(`[data-testid="invite-join"]`),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
	for _, br := range []*browser{a, b} {
		waitFor(br, 20*time.Second, `document.querySelector('[data-testid="game-panel"]').dataset.status == "active"`)
	}
	if eval[string](a, `document.querySelector('.board').dataset.color`) == "w" {
		return a, b
	}
	return b, a
}

// playMoves plays UCI moves from the start of a game, White and Black in
// turn, by dragging some pieces and clicking others, and waits until both
// pages show each move.
func playMoves(t *testing.T, white, black *browser, first int, ucis ...string) {
	t.Helper()
	for i, uci := range ucis {
		ply := first + i
		mover := white
		if ply%2 == 1 {
			mover = black
		}
		waitMyTurn(mover, ply)
		for attempt := 1; ; attempt++ {
			if ply%3 == 0 {
				clickMove(mover, uci[:2], uci[2:4])
			} else {
				dragMove(mover, uci[:2], uci[2:4])
			}
			// A press can be lost when the stream redraws the panel between
			// the button going down and up (most often at a game's start,
			// when the opponent's page connects): the move is then made
			// again, as a player would, and the test says so.
			if len(uci) == 5 || attempt == 3 || movedOrGone(mover, ply) {
				break
			}
			t.Logf("%s: the move %s at ply %d did not register; making it again", mover.name, uci, ply)
		}
		if len(uci) == 5 {
			waitFor(mover, 5*time.Second, `!document.querySelector('.promotion-picker').hidden`)
			// The picker opens on the promotion square with the four
			// pieces, the Queen there and pre-selected (Enter takes her).
			onSquare := fmt.Sprintf(`(function(){var q=document.querySelector('.promotion-picker [data-promotion="q"]'); var s=document.querySelector('.board [data-square="%s"]').getBoundingClientRect(); var r=q.getBoundingClientRect(); var x=r.left+r.width/2, y=r.top+r.height/2; return Array.from(q.parentNode.querySelectorAll('[data-promotion]')).map(b => b.dataset.promotion).join('')==='qrbn' && document.activeElement===q && x>s.left && x<s.right && y>s.top && y<s.bottom})()`, uci[2:4])
			if !eval[bool](mover, onSquare) {
				t.Errorf("%s: the promotion picker is not on %s with Q R B N and the Queen pre-selected", mover.name, uci[2:4])
			}
			mover.do(5*time.Second, chromedp.Click(`.promotion-picker [data-promotion="`+uci[4:]+`"]`))
		}
		waitPly(white, ply+1)
		waitPly(black, ply+1)
	}
}

// movedOrGone waits up to 3 s for b's page to leave ply (the move was
// taken) and reports whether it did; a page whose board no longer takes a
// move at ply counts as moved.
func movedOrGone(b *browser, ply int) bool {
	b.t.Helper()
	cond := fmt.Sprintf(`(function(){var g=document.querySelector('[data-testid="game-panel"]'); var bd=document.querySelector('.board'); return !g || g.dataset.ply!="%d" || !bd || bd.dataset.interactive!="true"})()`, ply)
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if ok, err := tryEval[bool](b, cond, 2*time.Second); err == nil && ok {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// endOf waits for the game to end on b's page and returns the reason and
// result it shows.
func endOf(b *browser) (reason, result string) {
	b.t.Helper()
	waitFor(b, 90*time.Second, `["finished","aborted"].includes(document.querySelector('[data-testid="game-panel"]').dataset.status)`)
	return eval[string](b, `document.querySelector('[data-testid="status"]').dataset.reason`),
		eval[string](b, `document.querySelector('[data-testid="status"]').dataset.result`)
}

func checkEnd(t *testing.T, want [2]string, browsers ...*browser) {
	t.Helper()
	for _, b := range browsers {
		if reason, result := endOf(b); reason != want[0] || result != want[1] {
			t.Errorf("%s sees %s %s (%q), want %s %s", b.name, reason, result, status(b), want[0], want[1])
		}
		b.screenshot("finished")
	}
}

// TestBrowserPrivateGameToMate: two people play a private 3+2 game to
// checkmate by drag and drop and by clicks; both pages show every move and
// the result, and the PGN download replays with `satranc pgn`.
func TestBrowserPrivateGameToMate(t *testing.T) {
	srv := startServer(t)
	a, b := newBrowser(t, "alice"), newBrowser(t, "bob")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	white, black := startPrivateGame(t, srv, a, b, "3+2")

	playMoves(t, white, black, 0, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
	checkEnd(t, [2]string{"checkmate", "1-0"}, white, black)
	want := []string{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"}
	for _, br := range []*browser{white, black} {
		if got := moves(br); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s's move list = %q, want %q", br.name, got, want)
		}
	}

	pgn := fetchText(white, `document.querySelector('[data-testid="pgn-link"]').href`)
	if !strings.Contains(pgn, "[%clk") {
		t.Errorf("PGN without clock comments:\n%s", pgn)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, satrancBinary(t), "pgn", "--format", "json")
	cmd.Stdin = strings.NewReader(pgn)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("satranc pgn: %v\n%s\nPGN:\n%s", err, out, pgn)
	}
	if !strings.Contains(string(out), `"end":"checkmate"`) || !strings.Contains(string(out), `"result":"1-0"`) {
		t.Errorf("satranc pgn of the download = %s", out)
	}
}

// fetchText downloads the URL that urlExpr evaluates to with b's cookies.
func fetchText(b *browser, urlExpr string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(`+urlExpr+`).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: fetch: %v", b.name, err)
	}
	return s
}
