//go:build e2e

package handlers_test

import (
	"database/sql"
	"fmt"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	_ "github.com/mattn/go-sqlite3"
)

// resultFigures returns what b's result panel shows of the rating change:
// the before and after of data-before and data-after, and the text.
func resultRating(b *browser) (before, after int, text string) {
	b.t.Helper()
	waitFor(b, 20*time.Second, `document.querySelector('[data-testid="result-panel"] [data-testid="result-rating"]')`)
	r := `document.querySelector('[data-testid="result-rating"]')`
	before, _ = strconv.Atoi(eval[string](b, r+`.dataset.before`))
	after, _ = strconv.Atoi(eval[string](b, r+`.dataset.after`))
	return before, after, strings.Join(strings.Fields(eval[string](b, r+`.textContent`)), " ")
}

// ratingChanges reads the rating_changes rows of game id from the
// database file, by user name.
func ratingChanges(t *testing.T, db string, id int64) map[string][2]int {
	t.Helper()
	conn, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT u.username, rc.rating_before, rc.rating_after
		FROM rating_changes rc JOIN users u ON u.id = rc.user_id WHERE rc.game_id = ?`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][2]int{}
	for rows.Next() {
		var name string
		var before, after int
		if err := rows.Scan(&name, &before, &after); err != nil {
			t.Fatal(err)
		}
		out[name] = [2]int{before, after}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// gameIDOf returns the id of the game b shows.
func gameIDOf(b *browser) int64 {
	b.t.Helper()
	id, err := strconv.ParseInt(path.Base(gameURL(b)), 10, 64)
	if err != nil {
		b.t.Fatalf("game URL %s: %v", gameURL(b), err)
	}
	return id
}

// resignLabel returns the text of b's resign button.
func resignLabel(b *browser) string {
	return strings.TrimSpace(eval[string](b, `document.querySelector('[data-testid="resign-open"]').textContent`))
}

// TestBrowserResultRated: two people play a rated Quick Play game; the
// resign button reads Abort until both have made two moves; Black resigns.
// Each player's result panel shows the result and the rating change that
// the database holds, in English and in Turkish; then both ask for a
// rematch and both pages go to the new game by themselves.
func TestBrowserResultRated(t *testing.T) {
	srv := startServer(t)
	a, b := newBrowser(t, "alice"), newBrowser(t, "bob")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	white, black := pairUp(t, a, b, func(x *browser) { joinQuick(x, srv, "5+0") })
	first := gameURL(white)
	id := gameIDOf(white)

	for _, p := range []*browser{white, black} {
		if got := resignLabel(p); got != "Abort" {
			t.Errorf("%s's resign button before any move reads %q, want Abort", p.name, got)
		}
	}
	playMoves(t, white, black, 0, "e2e4", "e7e5", "g1f3")
	if got := resignLabel(black); got != "Abort" {
		t.Errorf("after 2. Nf3 Black's button reads %q, want Abort (Black has made one move)", got)
	}
	playMoves(t, white, black, 3, "b8c6")
	waitMyTurn(white, 4)
	for _, p := range []*browser{white, black} {
		waitFor(p, 10*time.Second, `document.querySelector('[data-testid="resign-open"]').textContent.trim() == "Resign"`)
		if n := eval[int](p, `document.querySelectorAll('[data-testid="leave"]').length`); n != 1 {
			t.Errorf("%s: %d Leave buttons at a public table, want 1", p.name, n)
		}
	}
	countEvents(white)
	resignGame(black)
	checkEnd(t, [2]string{"resignation", "1-0"}, white, black)
	// White's page drew the end from its delta, the rating's change
	// included: it shows what a fresh load shows.
	waitFor(white, 10*time.Second, `!document.querySelector('[data-settled="false"]')`)
	matchFreshLoad(t, white, "after Black resigned")
	if n := eval[map[string]int](white, `window.__events`); n["move"] != 1 || n["game"] != 0 {
		t.Errorf("White's page got the end as %d deltas and %d whole panels, want one delta", n["move"], n["game"])
	}

	held := ratingChanges(t, srv.DB, id)
	if len(held) != 2 {
		t.Fatalf("rating_changes of game %d: %v, want both players", id, held)
	}
	for _, p := range []*browser{white, black} {
		before, after, text := resultRating(p)
		want := held[p.name]
		if before != want[0] || after != want[1] {
			t.Errorf("%s's panel shows %d → %d, the database %d → %d", p.name, before, after, want[0], want[1])
		}
		diff := after - before
		sign := "+"
		if diff < 0 {
			sign, diff = "−", -diff
		}
		if wantText := fmt.Sprintf("%d → %d (%s%d)", before, after, sign, diff); !strings.Contains(text, wantText) {
			t.Errorf("%s's panel reads %q, want %q", p.name, text, wantText)
		}
		if n := eval[int](p, `document.querySelectorAll('[data-testid="result-panel"] :is([data-testid="rematch"], [data-testid="result-new-game"], [data-testid="result-lobby"], [data-testid="result-pgn"])').length`); n != 4 {
			t.Errorf("%s's panel has %d of the 4 next steps", p.name, n)
		}
		if xp := eval[string](p, `document.querySelector('[data-testid="result-xp"]').dataset.xp`); xp == "" {
			t.Errorf("%s's panel shows no XP", p.name)
		}
	}
	if got := eval[string](white, `document.querySelector('[data-testid="result-title"]').textContent.trim()`); got != "You won" {
		t.Errorf("White's panel title %q, want You won", got)
	}
	white.screenshot("result-won")
	black.screenshot("result-lost")

	// Rematch: White asks, Black accepts; neither clicks a link.
	clickInPanel(white, `[data-testid="rematch"]`)
	white.do(20*time.Second, chromedp.WaitVisible(`[data-testid="rematch-pending"]`))
	black.do(20*time.Second, chromedp.WaitVisible(`[data-testid="rematch-offered"]`))
	clickInPanel(black, `[data-testid="rematch"]`)
	for _, p := range []*browser{white, black} {
		waitFor(p, 20*time.Second, `location.origin + location.pathname != "`+first+`" && document.querySelector('[data-testid="game-panel"]') && document.querySelector('[data-testid="game-panel"]').dataset.status == "active"`)
	}
	if u, v := gameURL(white), gameURL(black); u != v {
		t.Fatalf("after the rematch the players are at %s and %s", u, v)
	}
	if c := colorOf(white); c != "b" {
		t.Errorf("the first game's White plays %q in the rematch, want Black", c)
	}

	// The first game's page opened again stays there, with the link, and
	// reads in Turkish when asked.
	black.do(20*time.Second,
		chromedp.Navigate(first+"?lang=tr"),
		chromedp.WaitVisible(`[data-testid="result-panel"]`),
	)
	if got := eval[string](black, `document.querySelector('[data-testid="result-title"]').textContent.trim()`); got != "Kaybettiniz" {
		t.Errorf("Black's Turkish panel title %q, want Kaybettiniz", got)
	}
	if !strings.Contains(eval[string](black, `document.querySelector('[data-testid="result-rating"]').textContent`), "Elo puanı") {
		t.Error("the Turkish panel does not say Elo puanı")
	}
	time.Sleep(time.Second)
	if gameURL(black) != first {
		t.Errorf("the first game's page, opened again, went to %s", gameURL(black))
	}
	if n := eval[int](black, `document.querySelectorAll('[data-testid="rematch-go"]').length`); n != 1 {
		t.Error("the first game's page has no link to the rematch")
	}
	black.screenshot("result-tr")
}

// TestBrowserPracticeControls: a practice game has no chat, report, voice
// or Leave; the computer answers a draw offer at once; Resign reads Abort
// while the abort rule applies, and aborts; the result panel's New game
// starts a practice game like it.
func TestBrowserPracticeControls(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, "ayse")
	signUp(b, srv, "ayse")
	startPractice(b, srv, "easy", "5+0", "white")
	first := gameURL(b)

	const extras = `document.querySelectorAll('[data-testid="chat"], [data-testid="chat-form"], [data-testid="report"], [data-testid="leave"], [data-testid="voice"], [data-testid="chat-mute"]').length`
	if n := eval[int](b, extras); n != 0 {
		t.Errorf("%d chat, report, voice or leave controls in a practice game", n)
	}
	if got := resignLabel(b); got != "Abort" {
		t.Errorf("resign button before any move reads %q, want Abort", got)
	}
	waitMyTurn(b, 0)
	dragMove(b, "e2", "e4")
	waitMyTurn(b, 2)

	// A draw offer in the opening: the computer, not worse, declines at once.
	// The abort confirmation opened before is open after the panel's
	// redraws (static/js/confirm.js).
	b.do(10*time.Second, chromedp.Click(`[data-testid="resign-open"]`), chromedp.WaitVisible(`[data-testid="resign-confirm"]`))
	// The draw form came with the computer's move. htmx takes a swapped-in
	// form over when the swap settles (20 ms on); a click before that posts
	// it as a plain form, which answers by loading the page afresh, where
	// no confirmation is open. A person takes longer than that to click.
	waitFor(b, 5*time.Second, `(function () {
		var f = document.querySelector('[data-testid="draw-offer"]');
		f = f && f.closest('form');
		return !!(f && f['htmx-internal-data'] && f['htmx-internal-data'].initHash);
	})()`)
	start := time.Now()
	clickInPanel(b, `[data-testid="draw-offer"]`)
	waitFor(b, 5*time.Second, `!document.querySelector('[data-testid="draw-pending"]') && document.querySelector('[data-testid="game-panel"]').dataset.status == "active"`)
	t.Logf("the computer declined the draw in %v", time.Since(start).Round(time.Millisecond))
	if !eval[bool](b, `document.querySelector('[data-testid="resign"]').open`) {
		t.Error("the abort confirmation closed when the panel was redrawn")
	}
	if n := eval[int](b, extras); n != 0 {
		t.Errorf("%d chat, report, voice or leave controls in a practice game", n)
	}

	if got := resignLabel(b); got != "Abort" {
		t.Errorf("resign button after one move each reads %q, want Abort", got)
	}
	// A click can be lost when the stream redraws the panel under it (a
	// late redraw of the draw's answer on a loaded machine): the player
	// then confirms again, as a person would, and the test says so.
	const aborted = `document.querySelector('[data-testid="game-panel"]').dataset.status == "aborted"`
	for attempt := 1; ; attempt++ {
		if !eval[bool](b, `document.querySelector('[data-testid="resign"]').open`) {
			clickInPanel(b, `[data-testid="resign-open"]`)
		}
		clickInPanel(b, `[data-testid="resign-confirm"]`)
		if attempt == 3 || waitedFor(b, 4*time.Second, aborted) {
			break
		}
		t.Logf("the abort did not register (attempt %d); confirming again", attempt)
	}
	waitFor(b, 10*time.Second, aborted)
	if got := eval[string](b, `document.querySelector('[data-testid="result-panel"]').dataset.headline`); got != "game.result_panel.aborted" {
		t.Errorf("panel headline %q after the abort", got)
	}
	if n := eval[int](b, `document.querySelectorAll('[data-testid="result-rating"], [data-testid="result-chips"], [data-testid="result-xp"]').length`); n != 0 {
		t.Errorf("an aborted practice game shows %d figures", n)
	}
	b.screenshot("aborted")

	b.do(20*time.Second, chromedp.Click(`[data-testid="result-new-game"]`))
	waitFor(b, 20*time.Second, `location.origin + location.pathname != "`+first+`" && document.querySelector('[data-testid="game-panel"]') && document.querySelector('[data-testid="game-panel"]').dataset.status == "active"`)
	if c := colorOf(b); c != "w" {
		t.Errorf("the new practice game plays %q, want White again", c)
	}
	if meta := eval[string](b, `document.querySelector('.game-meta').textContent`); !strings.Contains(meta, "5+0") {
		t.Errorf("the new practice game is %q, want 5+0", meta)
	}
}
