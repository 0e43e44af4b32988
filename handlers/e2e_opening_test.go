//go:build e2e

package handlers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// openingFitsJS reports what is wrong with the opening line on a page: it
// must be there, on one line, inside the screen (a long name cut with an
// ellipsis), and the page no wider than the screen. "" means all is well.
const openingFitsJS = `(function(){
	var e = document.querySelector('[data-testid="opening"]');
	if (!e) return "no opening line";
	var r = e.getBoundingClientRect(), out = [];
	if (r.right > window.innerWidth + 0.5 || r.left < -0.5) out.push("opening line at " + r.left + ".." + r.right);
	if (r.height > 2 * parseFloat(getComputedStyle(e).fontSize)) out.push("opening line " + r.height + "px high");
	if (getComputedStyle(e).textOverflow != "ellipsis") out.push("no ellipsis");
	if (document.documentElement.scrollWidth > window.innerWidth) out.push("page " + document.documentElement.scrollWidth + "px wide");
	return out.join("; ");
})()`

// TestBrowserOpeningLine plays into the opening with the longest name of
// the data set (D00, 99 characters) and looks at the opening line on a
// phone (390×844) and a laptop, in both languages, for a player and a
// spectator, then on the replay: it names the opening and stays within the
// layout, the long name ending in an ellipsis.
func TestBrowserOpeningLine(t *testing.T) {
	srv := startServer(t)
	a, b, s := newBrowser(t, "alice"), newBrowser(t, "bob"), newBrowser(t, "spectator")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	signUp(s, srv, "carol")
	white, black := startPrivateGame(t, srv, a, b, "5+0")
	postMoves(t, white, black, 0, "d2d4", "d7d5", "c1f4", "c7c5", "e2e4", "d5e4")
	url := gameURL(white)
	want := map[string]string{"en": "D00 Queen's Pawn Game: Accelerated London System", "tr": "D00 Vezir Piyonu Oyunu: Accelerated London System"}
	for _, vp := range []layoutViewport{layoutViewports[2], layoutViewports[0]} {
		for _, lang := range []string{"en", "tr"} {
			for _, br := range []*browser{white, s} {
				emulate(br, vp)
				openIn(br, url, lang)
				if msg := eval[string](br, openingFitsJS); msg != "" {
					t.Errorf("%s, %s, %s: %s", vp.name, lang, br.name, msg)
				}
				if msg := eval[string](br, fitsJS); msg != "" {
					t.Errorf("%s, %s, %s: %s", vp.name, lang, br.name, msg)
				}
				text := strings.Join(strings.Fields(eval[string](br, `document.querySelector('[data-testid="opening"]').textContent`)), " ")
				if !strings.Contains(text, want[lang]) {
					t.Errorf("%s, %s, %s: opening line %q, want %q", vp.name, lang, br.name, text, want[lang])
				}
				br.screenshot("opening-" + vp.name + "-" + lang)
			}
		}
	}

	// The replay, once Black resigned, on the phone.
	if st := post(black, `fetch(location.pathname + '/resign', {method: 'POST'}).then(r => r.status)`); st >= 400 {
		t.Fatalf("resign answered %d", st)
	}
	id := url[strings.LastIndex(url, "/")+1:]
	emulate(s, layoutViewports[2])
	s.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/replay/"+id+"?lang=tr"),
		chromedp.WaitVisible(`[data-testid="replay"]`),
	)
	if msg := eval[string](s, openingFitsJS); msg != "" {
		t.Errorf("replay: %s", msg)
	}
	if msg := eval[string](s, replayFitsJS); msg != "" {
		t.Errorf("replay: %s", msg)
	}
	s.screenshot("opening-replay")
}
