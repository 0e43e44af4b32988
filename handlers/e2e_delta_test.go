//go:build e2e

package handlers_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// deltaMoves is a game with every kind of move a move's delta must carry:
// en passant (exf6), captures, a promotion with capture (gxh8=Q),
// castling on both sides, captures by Black while White leads (both
// materials change: Rxf8, Kxd7), a check and the king taking back.
var deltaMoves = strings.Fields("e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 f6g7 b8c6 g7h8q c8d7 g1f3 d8e7 f1e2 e8c8 e1g1 g8f6 h8f8 d8f8 e2b5 c6d4 b5d7 c8d7")

// drawOfferAt is the ply after which White offers a draw, which Black's
// move lets lapse.
const drawOfferAt = 11

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

// panelDOM writes out the game panel in doc, element by element with its
// attributes (sorted) and text, as a line each, for comparing a page the
// deltas drew with a fresh load of it. Left out is what runs on its own
// or is the scripts' business on any page: the time of the clocks and
// countdowns, the order of data-legal (pageState compares it sorted),
// htmx's passing classes, the flip button the script shows and presses,
// and the promotion picker's place, set as it opens (its move goes once
// it closes).
const panelDOM = `function (doc) {
	var out = [];
	var walk = function (el, depth) {
		var pad = new Array(depth + 1).join(' ');
		var clock = el.hasAttribute('data-remaining-ms');
		var attrs = Array.from(el.attributes).filter(function (a) {
			if (a.name === 'data-legal') return false;
			if (clock && (a.name === 'data-remaining-ms' || a.name === 'class')) return false;
			if ((a.name === 'hidden' || a.name === 'aria-pressed') && el.hasAttribute('data-flip-board')) return false;
			if (a.name === 'style' && el.classList.contains('promotion-picker')) return false;
			return true;
		}).map(function (a) {
			var v = a.value;
			if (a.name === 'class') v = v.split(/\s+/).filter(function (c) { return c && c.indexOf('htmx-') !== 0; }).join(' ');
			return a.name + '="' + v + '"';
		}).sort().join(' ');
		out.push(pad + el.tagName.toLowerCase() + (attrs ? ' ' + attrs : ''));
		if (clock) return;
		el.childNodes.forEach(function (c) {
			if (c.nodeType === 1) walk(c, depth + 1);
			else if (c.nodeType === 3 && c.textContent.trim()) out.push(pad + ' "' + c.textContent.replace(/\s+/g, ' ').trim() + '"');
		});
	};
	walk(doc.querySelector('[data-testid="game-panel"]'), 0);
	return out.join('\n');
}`

// firstDiff returns the first line where a and b differ, with a few
// lines of context from each.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	i := 0
	for i < len(la) && i < len(lb) && la[i] == lb[i] {
		i++
	}
	from := max(i-3, 0)
	return fmt.Sprintf("line %d:\n%s\nthe fresh load:\n%s", i+1, strings.Join(la[from:min(i+4, len(la))], "\n"), strings.Join(lb[from:min(i+4, len(lb))], "\n"))
}

// matchFreshLoad fails t when the game page in br shows other than a
// fresh load of it shows: pageState, then the panel's markup (panelDOM).
// when says when, for the message.
func matchFreshLoad(t *testing.T, br *browser, when string) {
	t.Helper()
	live := eval[string](br, `(`+pageState+`)(document)`)
	liveDOM := eval[string](br, `(`+panelDOM+`)(document)`)
	ctx, cancel := context.WithTimeout(br.ctx, 20*time.Second)
	fresh, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`fetch(location.href, {credentials: 'same-origin'}).then(r => r.text()).then(h => new DOMParser().parseFromString(h, 'text/html')).then(doc => [(`+pageState+`)(doc), (`+panelDOM+`)(doc)])`, chromedp.EvalAwaitPromise))
	cancel()
	if err != nil {
		t.Fatalf("%s: fetch the page: %v", br.name, err)
	}
	if live != fresh[0] {
		t.Errorf("%s %s: the page shows\n%s\na fresh load shows\n%s", br.name, when, live, fresh[0])
	} else if liveDOM != fresh[1] {
		t.Errorf("%s %s: the panel's markup differs from a fresh load's at %s", br.name, when, firstDiff(liveDOM, fresh[1]))
	}
}

// countEvents starts counting the game stream's events in br by name
// (window.__events: whole panels, "game", and deltas, "move").
func countEvents(br *browser) {
	eval[bool](br, `(function(){
		var n = window.__events = {game: 0, move: 0};
		document.body.addEventListener('htmx:sseBeforeMessage', function (e) {
			if (e.detail && n[e.detail.type] !== undefined) n[e.detail.type]++;
		});
		return true;
	})()`)
}

// countEventsFromLoad counts, like countEvents, the game stream's events
// of every page br opens from now on, from the page's start: its first
// panel included, if one comes.
func countEventsFromLoad(br *browser) {
	br.t.Helper()
	const counter = `window.__events = {game: 0, move: 0};
document.addEventListener('htmx:sseBeforeMessage', function (e) {
	if (e.detail && window.__events[e.detail.type] !== undefined) window.__events[e.detail.type]++;
});`
	runOnEveryPage(br, counter)
}

// TestBrowserMovesAsDeltas: a game played through en passant, captures
// that change both sides' material, a promotion, castling on both sides
// and a check, with the abort rule ending and a draw offer lapsing,
// reaches both players and a guest spectator as moves' deltas (the first
// two, with their first-move countdown, included), and after every move
// each page shows exactly what a fresh load of the page shows (the
// server's whole panel): squares, marks, legal moves, move list, status,
// opening, pieces taken, buttons and clocks, and the panel's markup
// element by element.
func TestBrowserMovesAsDeltas(t *testing.T) {
	srv := startServer(t)
	a, b, guest := newBrowser(t, "alice"), newBrowser(t, "bob"), newBrowser(t, "guest")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	white, black := startPrivateGame(t, srv, a, b, "15+10")
	countEventsFromLoad(guest)
	guest.do(30*time.Second, chromedp.Navigate(gameURL(white)), chromedp.WaitVisible(`[data-testid="game-panel"]`))
	pages := []*browser{white, black, guest}
	for _, br := range []*browser{white, black} {
		countEvents(br)
	}
	for i := range deltaMoves {
		playMoves(t, white, black, i, deltaMoves[i])
		waitPly(guest, i+1)
		for _, br := range pages {
			matchFreshLoad(t, br, fmt.Sprintf("after ply %d (%s)", i+1, deltaMoves[i]))
		}
		if t.Failed() {
			break
		}
		if i+1 == drawOfferAt {
			// White offers a draw on Black's turn: Black's move lets it
			// lapse, and that move's delta swaps both players' draw part.
			clickInPanel(white, `[data-testid="draw-offer"]`)
			waitFor(white, 10*time.Second, `!!document.querySelector('[data-testid="draw-pending"]')`)
			waitFor(black, 10*time.Second, `!!document.querySelector('[data-testid="draw-offered"]')`)
		}
	}
	for _, br := range pages {
		n := eval[map[string]int](br, `window.__events`)
		// Every move comes as a delta, the first two (which change the
		// first-move countdown) included.
		if n["move"] != len(deltaMoves) {
			t.Errorf("%s: %d moves as deltas and %d whole panels, want %d deltas", br.name, n["move"], n["game"], len(deltaMoves))
		}
		t.Logf("%s: %d moves as deltas, %d whole panels", br.name, n["move"], n["game"])
	}
	// The guest's page, counted from its start, had its panel from the
	// page alone: its stream sent no first panel (the page's shown=), and
	// a spectator sees nothing of the draw offer.
	if n := eval[map[string]int](guest, `window.__events`); n["game"] != 0 {
		t.Errorf("the guest's page got %d whole panels, want none", n["game"])
	}
	white.screenshot("after-deltas")
}

// TestBrowserGameEndsAsDeltas: a game's end reaches both players and a
// guest spectator as a delta, with the mating move (Fool's mate) and
// without a move (a resignation): each page then shows exactly what a
// fresh load shows (the status line, the result panel, the move list's
// end, the stopped clocks, no buttons, the board out of play), with no
// whole panel sent.
func TestBrowserGameEndsAsDeltas(t *testing.T) {
	srv := startServer(t)
	a, b, guest := newBrowser(t, "alice"), newBrowser(t, "bob"), newBrowser(t, "guest")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	for _, end := range []string{"mate", "resignation"} {
		white, black := startPrivateGame(t, srv, a, b, "15+10")
		guest.do(30*time.Second, chromedp.Navigate(gameURL(white)), chromedp.WaitVisible(`[data-testid="game-panel"]`))
		pages := []*browser{white, black, guest}
		for _, br := range pages {
			countEvents(br)
		}
		moves := strings.Fields("f2f3 e7e5 g2g4")
		resigner := black
		if end == "mate" {
			moves = append(moves, "d8h4")
		} else {
			// Black resigns once both have moved twice (before, it
			// would abort), on White's turn.
			moves = append(moves, "b8c6")
		}
		playMoves(t, white, black, 0, moves...)
		if end == "resignation" {
			waitMyTurn(white, len(moves))
			clickInPanel(resigner, `[data-testid="resign-open"]`)
			clickInPanel(resigner, `[data-testid="resign-confirm"]`)
		}
		for _, br := range pages {
			waitFor(br, 20*time.Second, `document.querySelector('[data-testid="game-panel"]').dataset.status == "finished" && !!document.querySelector('[data-testid="result-panel"]')`)
			// The result's figures, when the panel asks for them again,
			// are in place before the page is compared.
			waitFor(br, 10*time.Second, `!document.querySelector('[data-settled="false"]')`)
			matchFreshLoad(t, br, "after the "+end)
			if end == "resignation" && br == resigner {
				continue // the page that resigned loads the ended game
			}
			n := eval[map[string]int](br, `window.__events`)
			want := len(moves)
			if end == "resignation" {
				want++
			}
			// The stream's first event, a whole panel, may come after the
			// counting began; none may come after it.
			if n["move"] != want || n["game"] > 1 {
				t.Errorf("%s, %s: %d deltas and %d whole panels, want %d deltas (the moves and the end) and none", br.name, end, n["move"], n["game"], want)
			}
		}
		if end == "mate" {
			white.screenshot("end-as-delta-mated")
		} else {
			white.screenshot("end-as-delta-opponent-resigned")
		}
	}
}
