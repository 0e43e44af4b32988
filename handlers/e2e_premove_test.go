//go:build e2e

package handlers_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// premoveShown returns the squares b's board shows a premove on.
func premoveShown(b *browser) string {
	b.t.Helper()
	return eval[string](b, `Array.from(document.querySelectorAll('.board .sq-premove')).map(e => e.dataset.square).sort().join(' ')`)
}

// waitTheirTurn waits until b's page shows the game at ply with the
// opponent to move: the board takes no move, only a premove.
func waitTheirTurn(b *browser, ply int) {
	b.t.Helper()
	waitFor(b, 30*time.Second, fmt.Sprintf(`(function(){var g=document.querySelector('[data-testid="game-panel"]'); var bd=document.querySelector('.board'); return g && g.dataset.ply=="%d" && bd && bd.dataset.interactive=="false"})()`, ply))
}

// premoveTimer records, in b's page, when the next panel of the stream
// arrives (arrived: the SSE message, before htmx swaps it in; swap: the
// swap done, before board.js hears of it), when board.js sends a move
// (sent: its "satranc:move" event; request: htmx's request leaving), and
// when the panels of the plies after ply are swapped in (swapped, next).
func premoveTimer(b *browser, ply int) {
	b.t.Helper()
	eval[bool](b, fmt.Sprintf(`(function(){
		var t = window.__pm = {};
		// The opponent's move comes as a whole panel or as a move's delta.
		document.body.addEventListener('htmx:sseBeforeMessage', function (e) {
			if (e.detail && (e.detail.type === 'game' || e.detail.type === 'move') && t.arrived === undefined) t.arrived = performance.now();
		});
		// Capturing on window, registered after board.js's own: before
		// board.js's other scripts hear of the swap.
		window.addEventListener('htmx:afterSwap', function (e) {
			if ((e.target.id === 'game-panel' || e.target.id === 'game-delta') && t.arrived !== undefined && t.swap === undefined) t.swap = performance.now();
		}, true);
		document.addEventListener('satranc:move', function () { if (t.sent === undefined) t.sent = performance.now(); });
		document.addEventListener('htmx:beforeSend', function (e) {
			if (e.detail.elt && e.detail.elt.id === 'move-form' && t.request === undefined) t.request = performance.now();
		});
		document.addEventListener('htmx:afterSwap', function () {
			var p = document.querySelector('[data-testid="game-panel"]');
			if (p && +p.dataset.ply > %d && t.swapped === undefined) t.swapped = performance.now();
			if (p && +p.dataset.ply > %d + 1 && t.next === undefined) t.next = performance.now();
		});
		return true;
	})()`, ply, ply))
}

// timer returns a time premoveTimer recorded (ms), or -1.
func timer(b *browser, name string) float64 {
	b.t.Helper()
	return eval[float64](b, `window.__pm && window.__pm.`+name+` !== undefined ? window.__pm.`+name+` : -1`)
}

// logPremove logs how fast b's page sent its premove, and fails the test
// unless board.js sent it within a few milliseconds of the swap that
// brought the opponent's move.
func logPremove(t *testing.T, b *browser, move string) {
	t.Helper()
	arrived, swap, sent, request := timer(b, "arrived"), timer(b, "swap"), timer(b, "sent"), timer(b, "request")
	if arrived < 0 || swap < 0 || sent < 0 || request < 0 {
		t.Fatalf("%s's page: arrived %v, swap %v, sent %v, request %v", b.name, arrived, swap, sent, request)
	}
	t.Logf("premove %s: the opponent's move arrived; swapped in after %.1f ms; premove sent %.1f ms after the swap; its request left %.1f ms after the arrival",
		move, swap-arrived, sent-swap, request-arrived)
	// A few milliseconds on a quiet machine. The bound is one that a busy
	// one keeps (30 ms came in a CI run beside the race tests' load):
	// a premove left to a timer or to the stream's next event would
	// still miss it by far.
	if sent-swap > 100 {
		t.Errorf("premove %s sent %.1f ms after the swap, want a few", move, sent-swap)
	}
}

// TestBrowserPremovePlayed: while White thinks, Black sets a premove by
// dragging (1... e5), and then another by clicks (2... Nf6); each is
// played the moment White's move arrives, reaches the server and shows on
// both pages. How fast is logged (logPremove).
func TestBrowserPremovePlayed(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	waitTheirTurn(black, 0)

	dragMove(black, "e7", "e5")
	if got := premoveShown(black); got != "e5 e7" {
		t.Fatalf("after dragging e7-e5 on White's turn the board shows a premove on %q, want e5 e7", got)
	}
	if got := eval[string](black, `document.querySelector('.board [data-square="e5"] .piece') ? 'moved' : 'home'`); got != "home" {
		t.Errorf("the premoved pawn moved on the board before its turn")
	}
	black.screenshot("premove")
	premoveTimer(black, 0)
	premoveTimer(white, 0)
	clickMove(white, "e2", "e4")
	waitPly(white, 2)
	waitPly(black, 2)
	want := []string{"e4", "e5"}
	for _, b := range []*browser{white, black} {
		if got := moves(b); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s's move list = %q, want %q", b.name, got, want)
		}
	}
	logPremove(t, black, "1... e5")
	if own, back := timer(white, "sent"), timer(white, "next"); own >= 0 && back >= 0 {
		t.Logf("White's page: e4 played, Black's premove shown %.1f ms later (both ways through the server)", back-own)
	}
	if got := premoveShown(black); got != "" {
		t.Errorf("after the premove was played the board still shows one on %q", got)
	}

	// By clicks, on White's next turn.
	waitTheirTurn(black, 2)
	clickMove(black, "g8", "f6")
	if got := premoveShown(black); got != "f6 g8" {
		t.Fatalf("after clicking g8, f6 on White's turn the board shows a premove on %q, want f6 g8", got)
	}
	premoveTimer(black, 2)
	dragMove(white, "g1", "f3")
	waitPly(white, 4)
	waitPly(black, 4)
	want = []string{"e4", "e5", "Nf3", "Nf6"}
	for _, b := range []*browser{white, black} {
		if got := moves(b); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s's move list = %q, want %q", b.name, got, want)
		}
	}
	logPremove(t, black, "2... Nf6")
	// The game goes on as usual.
	playMoves(t, white, black, 4, "f1c4", "f8c5")
}

// TestBrowserPremovePromotion: a pawn premoved to the last rank becomes
// a Queen without asking, as on lichess: White premoves gxh8 while Black
// thinks, and plays gxh8=Q when Black's move arrives.
func TestBrowserPremovePromotion(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	// 1. h4 g5 2. hxg5 h6 3. gxh6 Bg7 4. hxg7
	playMoves(t, white, black, 0, "h2h4", "g7g5", "h4g5", "h7h6", "g5h6", "f8g7", "h6g7")
	waitTheirTurn(white, 7)
	dragMove(white, "g7", "h8")
	if got := premoveShown(white); got != "g7 h8" {
		t.Fatalf("premove gxh8 shown on %q", got)
	}
	if eval[bool](white, `!document.querySelector('.promotion-picker').hidden`) {
		t.Error("the promotion picker opened for a premove")
	}
	premoveTimer(white, 7)
	clickMove(black, "a7", "a6")
	waitPly(white, 9)
	waitPly(black, 9)
	for _, b := range []*browser{white, black} {
		if got := moves(b); got[len(got)-1] != "gxh8=Q" {
			t.Errorf("%s's move list ends with %q, want gxh8=Q", b.name, got[len(got)-1])
		}
	}
	logPremove(t, white, "5. gxh8=Q")
}

// TestBrowserPremoveDropped: a premove that White's move makes illegal
// is dropped without a word: Black premoves dxe4, White's pawn goes on to
// e5; Black's board takes a move as usual, shows no error and no
// premove, and nothing was sent.
func TestBrowserPremoveDropped(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	playMoves(t, white, black, 0, "e2e4", "d7d5")
	waitTheirTurn(black, 2)
	dragMove(black, "d5", "e4")
	if got := premoveShown(black); got != "d5 e4" {
		t.Fatalf("premove dxe4 shown on %q", got)
	}
	premoveTimer(black, 2)
	dragMove(white, "e4", "e5")
	waitMyTurn(black, 3)
	time.Sleep(500 * time.Millisecond) // a move sent would be on its way by now
	if sent := timer(black, "sent"); sent >= 0 {
		t.Errorf("an illegal premove was sent")
	}
	if got := premoveShown(black); got != "" {
		t.Errorf("the dropped premove is still shown on %q", got)
	}
	if msg := strings.TrimSpace(eval[string](black, `document.querySelector('[data-testid="move-error"]').textContent`)); msg != "" {
		t.Errorf("black's page shows %q", msg)
	}
	waitPly(white, 3)
	if got := moves(white); len(got) != 3 {
		t.Errorf("white's move list = %q, want three moves", got)
	}
	playMoves(t, white, black, 3, "c8f5", "g1f3")
}

// TestBrowserPremoveCancelled: a premove is cancelled by a right-click on
// the board, by a click on an empty square, and by Escape; none is played
// when White's move arrives.
func TestBrowserPremoveCancelled(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	waitTheirTurn(black, 0)

	dragMove(black, "e7", "e5")
	if got := premoveShown(black); got != "e5 e7" {
		t.Fatalf("premove shown on %q", got)
	}
	x, y := squareCenter(black, "d4")
	black.do(10*time.Second, chromedp.MouseClickXY(x, y, chromedp.ButtonType(input.MouseButtonRight)))
	if got := premoveShown(black); got != "" {
		t.Errorf("after a right-click the premove is still shown on %q", got)
	}

	clickMove(black, "g8", "f6")
	if got := premoveShown(black); got != "f6 g8" {
		t.Fatalf("premove shown on %q", got)
	}
	clickSquare(black, "d4") // empty
	if got := premoveShown(black); got != "" {
		t.Errorf("after a click on an empty square the premove is still shown on %q", got)
	}

	clickMove(black, "b8", "c6")
	black.do(10*time.Second, chromedp.KeyEvent("\x1b"))
	if got := premoveShown(black); got != "" {
		t.Errorf("after Escape the premove is still shown on %q", got)
	}
	// A piece picked up and put down again sets nothing either.
	clickSquare(black, "b8")
	clickSquare(black, "b8")

	premoveTimer(black, 0)
	dragMove(white, "e2", "e4")
	waitMyTurn(black, 1)
	time.Sleep(500 * time.Millisecond)
	if sent := timer(black, "sent"); sent >= 0 {
		t.Errorf("a cancelled premove was sent")
	}
	playMoves(t, white, black, 1, "c7c5", "g1f3")
}

// soundSpy wraps the page's AudioContext before any script of the page
// runs: it counts the contexts made and the notes started, and lists the
// sounds sounds.js announces ("satranc:sound"). The count goes on from
// one page of the site to the next in the tab (sessionStorage), as a
// resign reloads the game's page.
const soundSpy = `(function () {
	var log = { contexts: 0, notes: 0, names: [] };
	try { log = JSON.parse(sessionStorage.getItem('__audio') || 'null') || log; } catch (e) {}
	window.__audio = log;
	function save() { try { sessionStorage.setItem('__audio', JSON.stringify(log)); } catch (e) {} }
	document.addEventListener('satranc:sound', function (e) { log.names.push(e.detail.name); save(); });
	var AC = window.AudioContext;
	if (!AC) return;
	function Spy(opts) {
		var c = new AC(opts);
		log.contexts++;
		save();
		var make = c.createOscillator.bind(c);
		c.createOscillator = function () {
			var o = make();
			var start = o.start.bind(o);
			o.start = function (when) { log.notes++; save(); return start(when); };
			return o;
		};
		return c;
	}
	Spy.prototype = AC.prototype;
	window.AudioContext = Spy;
})();`

// spySounds installs soundSpy in every page b opens from now on.
func spySounds(b *browser) {
	b.t.Helper()
	runOnEveryPage(b, soundSpy)
}

// soundsHeard returns the sounds b's page has played, and the contexts
// and notes it made.
func soundsHeard(b *browser) (names []string, contexts, notes int) {
	b.t.Helper()
	names = eval[[]string](b, `window.__audio ? window.__audio.names : []`)
	contexts = eval[int](b, `window.__audio ? window.__audio.contexts : -1`)
	notes = eval[int](b, `window.__audio ? window.__audio.notes : -1`)
	return names, contexts, notes
}

// waitSound waits until b's page has played the sound name, and fails the
// test with what it did play if it does not within 5 s.
func waitSound(b *browser, name string) {
	b.t.Helper()
	waitUntil(b, fmt.Sprintf(`window.__audio.names.indexOf(%q) >= 0`, name), name)
}

// waitSounds waits until b's page has played n sounds.
func waitSounds(b *browser, n int) {
	b.t.Helper()
	waitUntil(b, fmt.Sprintf(`window.__audio.names.length >= %d`, n), fmt.Sprintf("%d sounds", n))
}

func waitUntil(b *browser, cond, what string) {
	b.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !eval[bool](b, cond); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			names, contexts, notes := soundsHeard(b)
			state := eval[string](b, `(function(){ try { return document.querySelector('[data-testid="game-panel"]').dataset.status } catch (e) { return '?' } })()`)
			b.t.Fatalf("%s: waited 5 s for %s; heard %q (%d contexts, %d notes), game %s", b.name, what, names, contexts, notes, state)
		}
	}
}

// touchPage gives b's page a user gesture, as a person looking at it
// would, so that the browser lets it play sound: a click on the status
// line, which does nothing.
func touchPage(b *browser) {
	b.t.Helper()
	// The status line is in the panel the stream redraws: a redraw between
	// finding it and clicking it loses the node, so try again.
	var err error
	for range 5 {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		err = chromedp.Do(ctx, chromedp.Click(`[data-testid="status"]`))
		cancel()
		if err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Fatalf("%s: click the status line: %v", b.name, err)
}

// TestBrowserSound: a private game between alice (sounds on) and bob
// (sounds off in his settings), watched by cem. alice hears the start,
// the moves, a capture, a check, her low-time warning and the end; cem
// hears the moves until he turns the sounds off on the game page; bob's
// page makes no AudioContext at all.
func TestBrowserSound(t *testing.T) {
	srv := startServer(t)
	a, b, c := newBrowser(t, "alice"), newBrowser(t, "bob"), newBrowser(t, "cem")
	for _, br := range []*browser{a, b, c} {
		spySounds(br)
	}
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	signUp(c, srv, "cem")

	// bob turns the sounds off in his settings.
	b.do(20*time.Second,
		chromedp.Navigate(srv.URL+"/settings"),
		chromedp.Click(`[data-testid="sound-off"]`),
		chromedp.Click(`[data-testid="settings-sound-save"]`),
		chromedp.WaitVisible(`[data-testid="settings-saved"]`),
	)
	if !eval[bool](b, `document.querySelector('[data-testid="sound-off"]').checked`) {
		t.Fatal("bob's settings do not show the sounds off after saving")
	}

	// alice creates the game (she is White: see below) and waits on its
	// page, which she has clicked; bob joins.
	a.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/play"),
		chromedp.WaitVisible(`[data-testid="private-form"]`),
		chromedp.SetValue(`[data-testid="private-control"]`, "3+0"),
		chromedp.Click(`[data-testid="private-start"]`),
		chromedp.WaitVisible(`[data-testid="invite-link"]`),
	)
	touchPage(a)
	link := eval[string](a, `document.querySelector('[data-testid="invite-link"]').value`)
	b.do(30*time.Second,
		chromedp.Navigate(link),
		chromedp.WaitVisible(`[data-testid="invite-join"]`),
		chromedp.Click(`[data-testid="invite-join"]`),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
	for _, br := range []*browser{a, b} {
		waitFor(br, 20*time.Second, `document.querySelector('[data-testid="game-panel"]').dataset.status == "active"`)
	}
	white, black := a, b
	if eval[string](a, `document.querySelector('.board').dataset.color`) != "w" {
		white, black = b, a
	}
	t.Logf("alice plays %s", map[bool]string{true: "White", false: "Black"}[white == a])
	touchPage(b)

	// 1. e4, then cem comes to watch: d5 2. exd5 Qxd5 3. Nc3 Qe5+
	playMoves(t, white, black, 0, "e2e4")
	c.do(20*time.Second, chromedp.Navigate(gameURL(a)), chromedp.WaitVisible(`[data-testid="game-panel"]`))
	touchPage(c)
	playMoves(t, white, black, 1, "d7d5", "e4d5", "d8d5", "b1c3", "d5e5")
	wantC := []string{"move", "capture", "capture", "move", "check"}
	waitSounds(c, len(wantC))
	if names, _, notes := soundsHeard(c); strings.Join(names, " ") != strings.Join(wantC, " ") || notes == 0 {
		t.Errorf("cem (watching) heard %q with %d notes, want %q", names, notes, wantC)
	}
	c.do(10*time.Second, chromedp.Click(`[data-testid="sound-toggle"]`))
	waitFor(c, 10*time.Second, `document.querySelector('[data-testid="sound-switch"]').dataset.sound == "off"`)

	// alice's own clock falls under 10 seconds: a clock update as the
	// stream sends it, with 10.3 s left and running.
	eval[bool](a, `(function(){
		var side = document.querySelector('.board').dataset.color === 'w' ? 'white' : 'black';
		var el = document.querySelector('[data-testid="clock-' + side + '"]');
		var html = el.outerHTML.replace(/data-remaining-ms="\d+"/, 'data-remaining-ms="10300"').replace(/data-running="\w+"/, 'data-running="true"').replace(/clock-critical|clock-low/g, '');
		htmx.swap(el, html, {swapStyle: 'outerHTML'});
		return true;
	})()`)
	waitSound(a, "lowtime")

	// 4. Be2 and White resigns.
	playMoves(t, white, black, 6, "f1e2")
	resignGame(white)
	for _, br := range []*browser{white, black, c} {
		endOf(br)
	}

	// What alice heard: she is White or Black, by the draw of colours; her
	// own moves she heard at once, and the check of her own Qe5+ when the
	// server's answer came. As White she resigned, and heard the end on
	// the page her resignation reloaded.
	wantA := []string{"start", "move", "move", "capture", "capture", "move", "check", "lowtime", "move", "end"}
	if white != a {
		wantA = []string{"start", "move", "move", "capture", "capture", "move", "move", "check", "lowtime", "move", "end"}
	}
	waitSound(a, "end")
	names, contexts, notes := soundsHeard(a)
	if got := strings.Join(names, " "); got != strings.Join(wantA, " ") || contexts < 1 || notes < len(wantA) {
		t.Errorf("alice heard %q (%d contexts, %d notes), want %q", got, contexts, notes, wantA)
	}
	if names, contexts, notes := soundsHeard(b); len(names) != 0 || contexts != 0 || notes != 0 {
		t.Errorf("bob, with the sounds off, heard %q (%d contexts, %d notes)", names, contexts, notes)
	}
	if names, _, _ := soundsHeard(c); strings.Join(names, " ") != strings.Join(wantC, " ") {
		t.Errorf("cem heard %q after turning the sounds off, want only %q", names, wantC)
	}
	// The switch kept cem's choice.
	c.do(20*time.Second, chromedp.Navigate(srv.URL+"/settings"), chromedp.WaitVisible(`[data-testid="settings-sound"]`))
	if !eval[bool](c, `document.querySelector('[data-testid="sound-off"]').checked`) {
		t.Error("cem's settings do not show the sounds off he chose on the game page")
	}
}

// TestBrowserAttention: White's tab is hidden; when Black's move arrives
// the title says it is White's move and the icon has a dot; shown again,
// the tab gets its title and icon back. Black's own move, played while
// his tab is hidden, changes nothing there.
func TestBrowserAttention(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	playMoves(t, white, black, 0, "e2e4")
	hide := func(b *browser, hidden bool) {
		b.t.Helper()
		eval[bool](b, fmt.Sprintf(`(function(){
			Object.defineProperty(document, 'hidden', {configurable: true, get: function () { return %v; }});
			Object.defineProperty(document, 'visibilityState', {configurable: true, get: function () { return %q; }});
			document.dispatchEvent(new Event('visibilitychange'));
			return true;
		})()`, hidden, map[bool]string{true: "hidden", false: "visible"}[hidden]))
	}
	look := func(b *browser) (title, icon string) {
		b.t.Helper()
		return eval[string](b, `document.title`), eval[string](b, `document.querySelector('link[rel~="icon"]').getAttribute('href')`)
	}
	title0, icon0 := look(white)
	if !strings.Contains(icon0, "/static/img/favicon.svg") {
		t.Errorf("the site icon is %q", icon0)
	}

	hide(white, true)
	if title, icon := look(white); title != title0 || icon != icon0 {
		t.Errorf("hidden on Black's move: title %q, icon %q; want them unchanged", title, icon)
	}
	hide(black, true)
	dragMove(black, "e7", "e5")
	waitPly(white, 2)
	waitFor(white, 5*time.Second, `document.title == "Your move · Satranç"`)
	if _, icon := look(white); !strings.Contains(icon, "/static/img/favicon-move.svg") {
		t.Errorf("hidden on White's move: icon %q, want the one with the dot", icon)
	}
	if title, icon := look(black); strings.Contains(title, "Your move") || strings.Contains(icon, "favicon-move") {
		t.Errorf("Black, after his own move: title %q, icon %q", title, icon)
	}

	hide(white, false)
	if title, icon := look(white); title != title0 || icon != icon0 {
		t.Errorf("shown again: title %q, icon %q; want %q, %q", title, icon, title0, icon0)
	}
	// Hidden again while it is still White's move: the title says so at once.
	hide(white, true)
	if title, _ := look(white); title != "Your move · Satranç" {
		t.Errorf("hidden again on White's move: title %q", title)
	}
	hide(white, false)
	playMoves(t, white, black, 2, "g1f3")
	if title, icon := look(white); title != title0 || icon != icon0 {
		t.Errorf("after White's move: title %q, icon %q; want %q, %q", title, icon, title0, icon0)
	}
}
