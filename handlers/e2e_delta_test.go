//go:build e2e

package handlers_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// deltaMoves is a game with every kind of move a move's delta must carry:
// en passant (exf6), captures, a promotion with capture (gxh8=Q),
// castling on both sides, a check and the king taking back.
var deltaMoves = strings.Fields("e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 f6g7 b8c6 g7h8q c8d7 g1f3 d8e7 f1e2 e8c8 e1g1 g8f6 h8f8 d8f8 e2b5 c6d4 b5d7 c8d7")

// pageState describes, as JSON, what a game page shows of the game in
// doc: every square (piece, last-move and check marks, coordinates), the
// board's ply, turn and legal moves, the move list with its latest move,
// the status line, the opening, the pieces taken, the buttons and which
// clock runs.
const pageState = `function (doc) {
	var p = doc.querySelector('[data-testid="game-panel"]');
	var board = doc.getElementById('game-board');
	var text = function (el) { return el ? el.textContent.replace(/\s+/g, ' ').trim() : ''; };
	return JSON.stringify({
		ply: p.dataset.ply, status: p.dataset.status, cue: p.dataset.lastMove,
		squares: Array.from(board.querySelectorAll('.sq')).map(function (s) {
			var img = s.querySelector('img.piece');
			return s.dataset.square + ':' + (img ? img.dataset.piece + '/' + img.getAttribute('src') + '/' + img.alt : '') +
				(s.classList.contains('sq-last') ? ':last' : '') + (s.classList.contains('sq-check') ? ':check' : '') +
				':' + text(s);
		}).join(' '),
		boardPly: board.dataset.ply || '', interactive: board.dataset.interactive || '',
		legal: (board.dataset.legal || '').split(' ').filter(Boolean).sort().join(' '),
		moves: Array.from(p.querySelectorAll('.move-list li')).map(function (li) {
			return li.value + '.' + Array.from(li.querySelectorAll('.move')).map(function (m) {
				return text(m) + (m.classList.contains('move-last') ? '*' : '') + (m.dataset.ply || '');
			}).join(',');
		}).join(' '),
		listPly: (p.querySelector('.moves') || {dataset: {}}).dataset.ply,
		statusLine: text(p.querySelector('[data-testid="status"]')),
		opening: text(p.querySelector('[data-testid="opening"]')),
		material: Array.from(p.querySelectorAll('.material')).map(function (m) {
			return m.dataset.testid + m.dataset.lead + ':' + Array.from(m.querySelectorAll('.taken')).map(function (t) {
				return t.dataset.piece + t.dataset.count + 'x' + t.querySelectorAll('i').length;
			}).join(',') + ':' + text(m);
		}).join(' '),
		actions: text(p.querySelector('[data-testid="actions"]')),
		clocks: Array.from(p.querySelectorAll('.clock')).map(function (c) { return c.dataset.testid + ':' + c.dataset.running; }).join(' ')
	});
}`

// TestBrowserMovesAsDeltas: a game played through en passant, captures, a
// promotion, castling on both sides and a check reaches both players and
// a guest spectator as moves' deltas (after the first plies), and after
// every move each page shows exactly what a fresh load of the page shows
// (the server's whole panel): squares, marks, legal moves, move list,
// status, opening, pieces taken, buttons and clocks.
func TestBrowserMovesAsDeltas(t *testing.T) {
	srv := startServer(t)
	a, b, guest := newBrowser(t, "alice"), newBrowser(t, "bob"), newBrowser(t, "guest")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	white, black := startPrivateGame(t, srv, a, b, "15+10")
	guest.do(30*time.Second, chromedp.Navigate(gameURL(white)), chromedp.WaitVisible(`[data-testid="game-panel"]`))
	pages := []*browser{white, black, guest}
	for _, br := range pages {
		eval[bool](br, `(function(){
			var n = window.__events = {game: 0, move: 0};
			document.body.addEventListener('htmx:sseBeforeMessage', function (e) {
				if (e.detail && n[e.detail.type] !== undefined) n[e.detail.type]++;
			});
			return true;
		})()`)
	}
	for i := range deltaMoves {
		playMoves(t, white, black, i, deltaMoves[i])
		waitPly(guest, i+1)
		for _, br := range pages {
			live := eval[string](br, `(`+pageState+`)(document)`)
			ctx, cancel := context.WithTimeout(br.ctx, 20*time.Second)
			fresh, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(location.href, {credentials: 'same-origin'}).then(r => r.text()).then(h => (`+pageState+`)(new DOMParser().parseFromString(h, 'text/html')))`, chromedp.EvalAwaitPromise))
			cancel()
			if err != nil {
				t.Fatalf("%s: fetch the page: %v", br.name, err)
			}
			if live != fresh {
				t.Errorf("%s after ply %d (%s): the page shows\n%s\na fresh load shows\n%s", br.name, i+1, deltaMoves[i], live, fresh)
			}
		}
		if t.Failed() {
			break
		}
	}
	for _, br := range pages {
		n := eval[map[string]int](br, `window.__events`)
		// The first plies change the first-move countdown and open the
		// move list: whole panels; every later move comes as a delta.
		if n["move"] < len(deltaMoves)-3 {
			t.Errorf("%s: %d moves as deltas and %d whole panels, want at least %d deltas", br.name, n["move"], n["game"], len(deltaMoves)-3)
		}
		t.Logf("%s: %d moves as deltas, %d whole panels", br.name, n["move"], n["game"])
	}
	white.screenshot("after-deltas")
}
