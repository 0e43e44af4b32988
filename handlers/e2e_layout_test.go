//go:build e2e

package handlers_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"satranc/engine/chess"
)

// layoutViewport is a screen the game page must fit: a laptop window, a
// desktop and a phone (touch).
type layoutViewport struct {
	name  string
	w, h  int64
	phone bool
}

var layoutViewports = []layoutViewport{
	{"laptop", 1366, 657, false},
	{"desktop", 1920, 1080, false},
	{"phone", 390, 844, true},
}

// emulate gives b's page the size of vp (a phone: mobile, touch, portrait).
func emulate(b *browser, vp layoutViewport) {
	b.t.Helper()
	if vp.phone {
		b.do(10*time.Second, chromedp.EmulateViewport(vp.w, vp.h, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
		return
	}
	b.do(10*time.Second, chromedp.EmulateViewport(vp.w, vp.h))
}

// openIn loads url in language lang and waits for the game panel.
func openIn(b *browser, url, lang string) {
	b.t.Helper()
	b.do(30*time.Second,
		chromedp.Navigate(url+"?lang="+lang),
		chromedp.WaitVisible(`html[lang="`+lang+`"] [data-testid="game-panel"]`),
	)
	// Let the stream's first snapshot land and the piece images load.
	waitFor(b, 10*time.Second, `Array.from(document.images).every(i => i.complete)`)
}

// fitsJS lists what of the game page is not inside the viewport as it
// opens, without scrolling: the whole board, both clocks, the status
// line; each player bar must touch the board, and the page must be no
// wider than the screen. "" means it all fits.
const fitsJS = `(function(status){
	var vw = window.innerWidth, vh = window.innerHeight, out = [];
	function rect(sel) { var e = document.querySelector(sel); return e && e.getBoundingClientRect(); }
	['.board', '[data-testid="clock-white"]', '[data-testid="clock-black"]', status].forEach(function (sel) {
		var r = rect(sel);
		if (!r) { out.push(sel + ' missing'); return; }
		if (r.width < 1 || r.height < 1) { out.push(sel + ' not shown'); return; }
		if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5)
			out.push(sel + ' at [' + [r.left, r.top, r.right, r.bottom].map(Math.round) + '] outside ' + vw + 'x' + vh);
	});
	var board = rect('.board'), bars = document.querySelectorAll('.player-bar');
	if (board && bars.length === 2) {
		var top = bars[0].getBoundingClientRect(), bottom = bars[1].getBoundingClientRect();
		if (top.top > bottom.top) { var t = top; top = bottom; bottom = t; }
		if (Math.abs(top.bottom - board.top) > 1 || Math.abs(bottom.top - board.bottom) > 1)
			out.push('player bars end at ' + Math.round(top.bottom) + ' and start at ' + Math.round(bottom.top) + ', board from ' + Math.round(board.top) + ' to ' + Math.round(board.bottom));
	}
	if (window.scrollX || window.scrollY) out.push('scrolled to ' + window.scrollX + ',' + window.scrollY);
	if (document.documentElement.scrollWidth > vw) out.push('page ' + document.documentElement.scrollWidth + ' px wide');
	return out.join('; ');
})('[data-testid="status"]')`

// replayFitsJS is fitsJS for the replay, whose status line is the result.
var replayFitsJS = strings.Replace(fitsJS, `[data-testid="status"]`, `[data-testid="replay-result"]`, 1)

// lastMoveShownJS reports where the move list's last move is when it is
// not in view: inside its scrolling box and inside the viewport.
const lastMoveShownJS = `(function(){
	var box = document.querySelector('.moves'), moves = document.querySelectorAll('[data-testid="move-list"] [data-testid="move"]');
	if (!box || !moves.length) return 'no move list';
	var last = moves[moves.length - 1], r = last.getBoundingClientRect(), b = box.getBoundingClientRect();
	if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) return 'last move ' + last.textContent.trim() + ' at ' + Math.round(r.top) + '-' + Math.round(r.bottom) + ', box shows ' + Math.round(b.top) + '-' + Math.round(b.bottom);
	if (r.top < 0 || r.bottom > window.innerHeight) return 'last move ' + last.textContent.trim() + ' below the fold at ' + Math.round(r.bottom);
	return '';
})()`

// currentMoveShownJS reports where the replay's current move is when it
// is not in view inside the move list.
const currentMoveShownJS = `(function(){
	var box = document.querySelector('.moves'), cur = document.querySelector('.moves .current');
	if (!box || !cur) return 'no current move';
	var r = cur.getBoundingClientRect(), b = box.getBoundingClientRect();
	if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) return 'current move ' + cur.textContent.trim() + ' at ' + Math.round(r.top) + '-' + Math.round(r.bottom) + ', box shows ' + Math.round(b.top) + '-' + Math.round(b.bottom);
	return '';
})()`

// randomGame returns n plies of a game from the start that neither ends
// nor repeats a position: each move drawn from the legal ones by a seeded
// generator.
func randomGame(t *testing.T, n int) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(15, 40))
	p := chess.StartPosition()
	seen := map[uint64]bool{p.Hash(): true}
	var out []string
	for len(out) < n {
		moves := p.LegalMoves()
		r.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		found := false
		for _, m := range moves {
			q := p.Play(m)
			if q.Termination() != chess.NoTermination || seen[q.Hash()] {
				continue
			}
			p, found = q, true
			seen[p.Hash()] = true
			out = append(out, m.String())
			break
		}
		if !found {
			t.Fatalf("no move after %v", out)
		}
	}
	return out
}

// postMoves plays UCI moves from ply first through the HTTP API, each from
// the page of the side to move, and waits until both pages show each.
func postMoves(t *testing.T, white, black *browser, first int, ucis ...string) {
	t.Helper()
	for i, uci := range ucis {
		ply := first + i
		mover := white
		if ply%2 == 1 {
			mover = black
		}
		waitMyTurn(mover, ply)
		send := fmt.Sprintf(`fetch(location.pathname + '/moves', {method: 'POST', body: new URLSearchParams({uci: %q, ply: '%d'})}).then(r => r.status)`, uci, ply)
		status := post(mover, send)
		for tries := 0; status == 429 && tries < 10; tries++ { // the server's move limit: 4 a second after 20
			time.Sleep(300 * time.Millisecond)
			status = post(mover, send)
		}
		if status >= 300 {
			t.Fatalf("%s: move %d %s answered %d", mover.name, ply, uci, status)
		}
		waitPly(white, ply+1)
		waitPly(black, ply+1)
	}
}

// post evaluates a fetch in b's page (with its cookies) and returns the
// response's status.
func post(b *browser, fetch string) int {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	st, err := chromedp.Run(ctx, chromedp.Evaluate[int](fetch, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: %s: %v", b.name, fetch, err)
	}
	return st
}

// TestBrowserLayoutGamePage opens a running private game at a laptop's,
// a desktop's and a phone's size, in English and in Turkish, for both
// players and a spectator: the whole board, both clocks and the status line
// are in view without scrolling, the player bars touch the board, nothing
// is wider than the screen. Screenshots of each go to the artefacts.
func TestBrowserLayoutGamePage(t *testing.T) {
	srv := startServer(t)
	a, b, s := newBrowser(t, "alice"), newBrowser(t, "bob"), newBrowser(t, "spectator")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	signUp(s, srv, "carol")
	white, black := startPrivateGame(t, srv, a, b, "5+0")
	// White takes a pawn and is a pawn up: the bars show it.
	postMoves(t, white, black, 0, "e2e4", "d7d5", "e4d5", "g8f6", "b1c3")
	url := gameURL(white)
	for _, vp := range layoutViewports {
		for _, lang := range []string{"en", "tr"} {
			for _, br := range []*browser{white, black, s} {
				emulate(br, vp)
				openIn(br, url, lang)
				if msg := eval[string](br, fitsJS); msg != "" {
					t.Errorf("%s, %s, %s: %s", vp.name, lang, br.name, msg)
				}
				br.screenshot(vp.name + "-" + lang)
			}
			if lead := eval[string](white, `document.querySelector('[data-testid="material-white"]').dataset.lead`); lead != "1" {
				t.Errorf("%s, %s: White's material lead = %q, want 1", vp.name, lang, lead)
			}
		}
	}
	if got := eval[string](white, `document.querySelector('[data-testid="material-white"] .taken').dataset.piece`); got != "bP" {
		t.Errorf("White has taken %q, want bP", got)
	}

	// The spectator turns the board round: Black comes to the bottom, and
	// stays there after the next move and a reload.
	emulate(s, layoutViewports[0])
	openIn(s, url, "en")
	clickInPanel(s, `[data-testid="flip-board"]`)
	bottomLeft := `(function(){var b=document.querySelector('.board').getBoundingClientRect(); var e=document.elementFromPoint(b.left+5, b.bottom-5); return e && e.closest('[data-square]') ? e.closest('[data-square]').dataset.square : ''})()`
	if got := eval[string](s, bottomLeft); got != "h8" {
		t.Errorf("flipped board: bottom left square %q, want h8", got)
	}
	postMoves(t, white, black, 5, "c8g4")
	waitPly(s, 6)
	if got := eval[string](s, bottomLeft); got != "h8" {
		t.Errorf("flipped board after a move: bottom left square %q, want h8", got)
	}
	if msg := eval[string](s, fitsJS); msg != "" {
		t.Errorf("flipped board: %s", msg)
	}
	s.screenshot("flipped")
	openIn(s, url, "en")
	if got := eval[string](s, bottomLeft); got != "h8" {
		t.Errorf("flipped board after a reload: bottom left square %q, want h8", got)
	}
}

// TestBrowserLayoutMoveList plays 40 moves in a private game at a laptop's
// size: the last move is in view in the move list of both players; a
// player who scrolls back keeps their place while the game goes on, and
// follows the game again once back at the end; the finished game's list
// ends with the score and the reason. Then the replay shows each player
// their own side at the bottom.
func TestBrowserLayoutMoveList(t *testing.T) {
	srv := startServer(t)
	a, b := newBrowser(t, "alice"), newBrowser(t, "bob")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	white, black := startPrivateGame(t, srv, a, b, "15+10")
	for _, br := range []*browser{white, black} {
		emulate(br, layoutViewports[0])
		openIn(br, gameURL(br), "en")
	}
	game := randomGame(t, 85)
	postMoves(t, white, black, 0, game[:80]...)
	for _, br := range []*browser{white, black} {
		if got := len(moves(br)); got != 80 {
			t.Errorf("%s's move list has %d moves, want 80", br.name, got)
		}
		if msg := eval[string](br, lastMoveShownJS); msg != "" {
			t.Errorf("%s after 40 moves: %s", br.name, msg)
		}
		if msg := eval[string](br, fitsJS); msg != "" {
			t.Errorf("%s after 40 moves: %s", br.name, msg)
		}
		if focusable := eval[bool](br, `document.querySelector('.moves').tabIndex === 0 && document.querySelector('.moves').getAttribute('aria-label') !== ''`); !focusable {
			t.Errorf("%s: the move list cannot be reached with the keyboard", br.name)
		}
	}
	white.screenshot("40-moves")

	// White scrolls back to the opening: the next moves leave the list
	// there; back at the end, it follows again.
	firstRow := `(function(){var b=document.querySelector('.moves'), r=b.querySelector('li').getBoundingClientRect(), o=b.getBoundingClientRect(); return Math.round(r.top - o.top)})()`
	eval[bool](white, `(function(b){ b.querySelector('li').scrollIntoView({block: 'nearest'}); return true })(document.querySelector('.moves'))`)
	time.Sleep(100 * time.Millisecond)
	before := eval[int](white, firstRow)
	postMoves(t, white, black, 80, game[80:82]...)
	if after := eval[int](white, firstRow); after != before || after < 0 {
		t.Errorf("the list scrolled back to the opening moved on the next moves: its first row from %d px to %d px", before, after)
	}
	if msg := eval[string](black, lastMoveShownJS); msg != "" {
		t.Errorf("black, following: %s", msg)
	}
	eval[bool](white, `(function(b){ var m = b.querySelectorAll('[data-testid="move"]'); m[m.length - 1].scrollIntoView({block: 'nearest'}); return true })(document.querySelector('.moves'))`)
	time.Sleep(100 * time.Millisecond)
	postMoves(t, white, black, 82, game[82:84]...)
	if msg := eval[string](white, lastMoveShownJS); msg != "" {
		t.Errorf("white, back at the end: %s", msg)
	}

	// White steps back: a click on a move, then the left arrow, show the
	// positions after them; the game goes on meanwhile; the button on the
	// board goes back to the live position, where White moves.
	browsed := `(function(){var b=document.querySelector('.board-browsed'); return b && !document.querySelector('.board[data-interactive]').offsetParent ? b.querySelector('.sq-last') ? Array.from(b.querySelectorAll('.sq-last')).map(s => s.dataset.square).sort().join(' ') : 'start' : ''})()`
	squares := func(uci string) string {
		a, b := uci[:2], uci[2:4]
		if a > b {
			a, b = b, a
		}
		return a + " " + b
	}
	white.do(10*time.Second, chromedp.Click(`.moves [data-ply="10"]`))
	waitFor(white, 10*time.Second, browsed+` === "`+squares(game[9])+`"`)
	white.screenshot("browsing")
	white.do(10*time.Second, chromedp.KeyEvent(kb.ArrowLeft))
	waitFor(white, 10*time.Second, browsed+` === "`+squares(game[8])+`"`)
	if got := eval[string](white, `document.querySelector('.move-browsed').dataset.ply`); got != "9" {
		t.Errorf("the move list marks ply %s, want 9", got)
	}
	postMoves(t, white, black, 84, game[84:85]...) // White moves by the API: the page stays on the past position
	waitPly(white, 85)
	if got := eval[string](white, browsed); got != squares(game[8]) {
		t.Errorf("after the opponent's move the browsed board shows %q, want the last move %q", got, squares(game[8]))
	}
	black.do(10*time.Second, chromedp.KeyEvent(kb.Home))
	waitFor(black, 10*time.Second, browsed+` === "start"`)
	white.do(10*time.Second, chromedp.Click(`[data-testid="browse-live"]`))
	waitFor(white, 10*time.Second, `!document.querySelector('.board-browsed') && document.querySelector('.board').offsetParent`)
	black.do(10*time.Second, chromedp.KeyEvent(kb.End))
	waitFor(black, 10*time.Second, `!document.querySelector('.board-browsed')`)

	// Black resigns: both lists end with 1-0 and the reason, in view.
	if st := post(black, `fetch(location.pathname + '/resign', {method: 'POST'}).then(r => r.status)`); st >= 400 {
		t.Fatalf("resign answered %d", st)
	}
	checkEnd(t, [2]string{"resignation", "1-0"}, white, black)
	for _, br := range []*browser{white, black} {
		end := `(function(){var e=document.querySelector('.moves-body > :last-child'); if (!e || e.dataset.testid !== 'move-list-end') return 'the list does not end with the result'; var r=e.getBoundingClientRect(), b=document.querySelector('.moves').getBoundingClientRect(); if (r.bottom > b.bottom + 0.5 || r.bottom > innerHeight) return 'the result is out of view'; return e.textContent.replace(/\s+/g, ' ').trim()})()`
		if got := eval[string](br, end); !strings.HasPrefix(got, "1-0 ") || !strings.Contains(got, "resigned") {
			t.Errorf("%s: end of the move list %q, want 1-0 and the reason", br.name, got)
		}
	}
	black.screenshot("finished")

	// The replay: each player's own side at the bottom.
	id := strings.TrimPrefix(gameURL(white), srv.URL+"/games/")
	for _, tc := range []struct {
		b    *browser
		want string
	}{{white, "white"}, {black, "black"}} {
		tc.b.do(20*time.Second,
			chromedp.Navigate(srv.URL+"/replay/"+id),
			chromedp.WaitVisible(`[data-testid="replay"]`),
		)
		if got := eval[string](tc.b, `document.querySelector('.board').dataset.orientation`); got != tc.want {
			t.Errorf("%s's replay has %s at the bottom, want %s", tc.b.name, got, tc.want)
		}
		for _, vp := range layoutViewports {
			emulate(tc.b, vp)
			tc.b.do(20*time.Second,
				chromedp.Navigate(srv.URL+"/replay/"+id+"?ply=41"),
				chromedp.WaitVisible(`[data-testid="replay"]`),
			)
			if msg := eval[string](tc.b, replayFitsJS); msg != "" {
				t.Errorf("%s's replay at the %s's size: %s", tc.b.name, vp.name, msg)
			}
			if msg := eval[string](tc.b, currentMoveShownJS); msg != "" {
				t.Errorf("%s's replay at the %s's size: %s", tc.b.name, vp.name, msg)
			}
			tc.b.screenshot("replay-" + vp.name)
		}
	}
	if got := eval[string](black, `document.querySelector('[data-testid="replay-players"]').textContent.replace(/\s+/g, ' ').trim()`); got != "alice – bob" && got != "bob – alice" {
		t.Errorf("replay title %q, want the two names apart", got)
	}
}

// TestBrowserLayoutNarrowPages opens every page a member reaches at
// 360 px wide, in both languages: none is wider than the screen.
func TestBrowserLayoutNarrowPages(t *testing.T) {
	srv := startServer(t)
	a, b := newBrowser(t, "alice"), newBrowser(t, "bob")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	white, black := startPrivateGame(t, srv, a, b, "5+0")
	postMoves(t, white, black, 0, "e2e4", "e7e5")
	game := gameURL(white)
	if st := post(black, `fetch(location.pathname + '/resign', {method: 'POST'}).then(r => r.status)`); st >= 400 {
		t.Fatalf("resign answered %d", st)
	}
	endOf(white)
	replay := strings.Replace(game, "/games/", "/replay/", 1)

	// A second game, running, for the game page.
	white, _ = startPrivateGame(t, srv, a, b, "5+0")
	running := gameURL(white)

	emulate(a, layoutViewport{"narrow", 360, 740, true})
	pages := []string{"/", "/play", "/lobby", "/profile", "/settings", "/leaderboard", "/tournaments", "/tournaments/daily", "/tournaments/weekly",
		"/rules", "/guidelines", "/terms", "/tournament-rules", "/players/bob",
		strings.TrimPrefix(replay, srv.URL), strings.TrimPrefix(running, srv.URL)}
	for _, lang := range []string{"en", "tr"} {
		for _, page := range pages {
			a.do(30*time.Second,
				chromedp.Navigate(srv.URL+page+sep(page)+"lang="+lang),
				chromedp.WaitReady(`[data-testid="main"]`),
			)
			if w := eval[int](a, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
				t.Errorf("%s in %s at 360 px: %d px too wide (%s)", page, lang, w, eval[string](a, widestJS))
			}
		}
		a.screenshot("narrow-game-" + lang)
	}

	// The sections and the log-out button are in the header's menu there.
	a.do(10*time.Second, chromedp.Click(`[data-testid="nav-menu-open"]`), chromedp.WaitVisible(`[data-testid="nav-lobby"]`))
	inView := `(function(){return Array.from(document.querySelectorAll('[data-testid="nav-lobby"], [data-testid="logout"]')).every(function(e){var r=e.getBoundingClientRect(); return r.width > 0 && r.left >= 0 && r.right <= innerWidth})})()`
	if !eval[bool](a, inView) {
		t.Error("the open menu's links are not all on the screen")
	}
	if w := eval[int](a, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("the open menu makes the page %d px too wide", w)
	}
	a.screenshot("narrow-menu")
	a.do(10*time.Second, chromedp.Click(`[data-testid="nav-lobby"]`), chromedp.WaitVisible(`[data-testid="main"]`))
	if path := eval[string](a, `location.pathname`); path != "/lobby" {
		t.Errorf("the menu's Lobby link led to %s", path)
	}
}

func sep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

// widestJS names the elements that stick out on the right.
const widestJS = `Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5).slice(0, 5).map(e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') + (e.dataset.testid ? '[' + e.dataset.testid + ']' : '') + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')`
