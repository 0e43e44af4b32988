//go:build e2e

package handlers_test

import (
	"strconv"
	"testing"
)

// TestBrowserLagPingRidesOnMove: the game page sends its stream's latest
// lag ping back with the player's next move, with the milliseconds it held
// it (static/js/board.js), and sends no echo of its own.
func TestBrowserLagPingRidesOnMove(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	// Listening after board.js, the page's own script, this sees the
	// move's parameters as they go.
	eval[bool](white, `(function () {
		window.lagSent = [];
		document.addEventListener("htmx:configRequest", function (e) {
			if (!e.detail.elt || e.detail.elt.id !== "move-form") return;
			window.lagSent.push([String(e.detail.parameters.lag || ""), String(e.detail.parameters.held || "")]);
		});
		return true;
	})()`)
	playMoves(t, white, black, 0, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4")

	sent := eval[[][]string](white, `window.lagSent`)
	carried := 0
	for i, s := range sent {
		if s[0] == "" {
			continue
		}
		carried++
		if held, err := strconv.Atoi(s[1]); err != nil || held < 0 || held > 60_000 {
			t.Errorf("White's move %d carried the ping %q held %q, want a count of milliseconds", i+1, s[0], s[1])
		}
	}
	if carried == 0 {
		t.Errorf("none of White's %d moves carried a lag ping back: %q", len(sent), sent)
	}
	if n := eval[int](white, `performance.getEntriesByType("resource").filter(function (e) { return e.name.indexOf("/lag") >= 0; }).length`); n != 0 {
		t.Errorf("the page sent %d lag echoes of their own", n)
	}
	t.Logf("White's moves sent back %d pings: %q", carried, sent)
}
