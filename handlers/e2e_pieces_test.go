//go:build e2e

package handlers_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// sultanDir is the folder of the default piece set, the Sultan pieces of
// issue 16.
const sultanDir = "/static/img/pieces/sultan/"

// boardImagesJS lists the src of every piece image on the first board of
// the page that is not drawn (not loaded, or of no width), and the folders
// the images come from, as "bad|folder folder …".
const boardImagesJS = `(function(){
	var bad = [], dirs = {};
	document.querySelectorAll('.board img.piece').forEach(function(i){
		var src = i.getAttribute('src') || '';
		dirs[src.replace(/[^/]*$/, '')] = true;
		if (!i.complete || i.naturalWidth === 0) bad.push(src);
	});
	return bad.join(' ') + '|' + Object.keys(dirs).sort().join(' ');
})()`

// TestBrowserSultanPieces is the figure of issue 16 for the Sultan pieces:
// a guest's board and a new member's game are drawn with the Sultan set by
// default, every image loads, the settings page offers it checked beside
// the earlier sets, and choosing the standard set still works. The
// screenshots are the laptop and phone views of the game, and a sheet of
// the three sets at 30 and 60 px squares on every board theme to compare
// them by eye.
func TestBrowserSultanPieces(t *testing.T) {
	srv := startServer(t)

	guest := newBrowser(t, "guest")
	guest.do(30*time.Second, chromedp.Navigate(srv.URL+"/rules"), chromedp.WaitVisible(`[data-testid="tryit-castling"]`))
	src := eval[string](guest, `document.querySelector('[data-testid="tryit-castling"] .board img.piece').getAttribute('src')`)
	if !strings.HasPrefix(src, sultanDir) {
		t.Errorf("a guest's board draws %q, want the Sultan set", src)
	}

	b := newBrowser(t, "ece")
	signUp(b, srv, "ece")
	startPractice(b, srv, "easy", "untimed", "white")
	game := gameURL(b)
	waitMyTurn(b, 0)
	waitFor(b, 10*time.Second, `Array.from(document.images).every(i => i.complete)`)
	bad, dirs, _ := strings.Cut(eval[string](b, boardImagesJS), "|")
	if bad != "" || dirs != sultanDir {
		t.Errorf("the new member's board: images not drawn %q, folders %q; want all drawn from %s", bad, dirs, sultanDir)
	}
	for _, vp := range []layoutViewport{layoutViewports[0], layoutViewports[2]} {
		emulate(b, vp)
		b.do(30*time.Second, chromedp.Navigate(game), chromedp.WaitVisible(`[data-testid="game-panel"]`))
		waitFor(b, 10*time.Second, `Array.from(document.images).every(i => i.complete)`)
		b.screenshot(fmt.Sprintf("game-%dx%d", vp.w, vp.h))
	}
	emulate(b, layoutViewports[0])

	b.do(20*time.Second, chromedp.Navigate(srv.URL+"/settings"), chromedp.WaitVisible(`[data-testid="settings-form"]`))
	for id, checked := range map[string]bool{"pieces_sultan": true, "pieces_standard": false, "pieces_flat": false} {
		got := eval[string](b, fmt.Sprintf(`(function(i){ return i ? (i.checked ? 'checked' : '') + (i.disabled ? ' disabled' : '') : 'missing' })(document.querySelector('[data-testid="item-%s"]'))`, id))
		if want := map[bool]string{true: "checked", false: ""}[checked]; got != want {
			t.Errorf("settings: %s is %q, want %q", id, got, want)
		}
	}
	b.screenshot("settings")

	// The earlier sets stay choices: the standard set draws the board again.
	b.do(20*time.Second,
		chromedp.Click(`[data-testid="item-pieces_standard"]`),
		chromedp.Click(`[data-testid="settings-save"]`),
		chromedp.WaitVisible(`[data-testid="settings-saved"]`),
		chromedp.Navigate(game),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
	waitFor(b, 10*time.Second, `Array.from(document.images).every(i => i.complete)`)
	if bad, dirs, _ := strings.Cut(eval[string](b, boardImagesJS), "|"); bad != "" || dirs != "/static/img/pieces/" {
		t.Errorf("after choosing the standard set: images not drawn %q, folders %q", bad, dirs)
	}

	// The comparison sheet: each set's starting position and a few pieces
	// in the middle, on each theme's colours, at the phone's smallest
	// squares and at a desktop's.
	for _, size := range []int{30, 60} {
		b.do(20*time.Second, chromedp.Navigate(srv.URL+"/static/img/pieces/LICENSE.txt"))
		eval[bool](b, fmt.Sprintf(`(function(size){
			var themes = [['#f0d9b5','#b58863'], ['#e2c49a','#7e4f2c'], ['#dfe6ea','#7d99a8'], ['#f5f1e6','#23808d']];
			var sets = ['sultan/', '', 'flat/'];
			var rows = ['rnbqkbnr','pppppppp','........','..Q..N..','..k..b..','........','PPPPPPPP','RNBQKBNR'];
			var h = '<body style="margin:8px;background:#777;font:14px sans-serif;color:#fff">';
			sets.forEach(function(set){
				h += '<div>' + (set || 'standard/') + '</div><div style="display:flex;gap:8px;margin-bottom:8px">';
				themes.forEach(function(th){
					h += '<div style="display:grid;grid-template-columns:repeat(8,' + size + 'px)">';
					for (var r = 0; r < 8; r++) for (var f = 0; f < 8; f++) {
						var p = rows[r][f], img = '';
						if (p !== '.') img = '<img style="display:block;width:100%%;height:100%%" src="/static/img/pieces/' + set + (p === p.toUpperCase() ? 'w' : 'b') + p.toUpperCase() + '.svg">';
						h += '<div style="height:' + size + 'px;background:' + th[(r + f) %% 2] + '">' + img + '</div>';
					}
					h += '</div>';
				});
				h += '</div>';
			});
			document.documentElement.innerHTML = h;
			return true;
		})(%d)`, size))
		waitFor(b, 10*time.Second, `document.images.length === 3*4*36 && Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)`)
		b.screenshot(fmt.Sprintf("sets-%dpx", size))
	}
}
