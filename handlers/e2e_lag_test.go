//go:build e2e

package handlers_test

import (
	"net/url"
	"strconv"
	"testing"
)

// TestBrowserLagPingRidesOnMove: the game page sends its stream's latest
// lag ping back with the player's next move, with the milliseconds it held
// it (static/js/board.js), and sends no echo of its own.
func TestBrowserLagPingRidesOnMove(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	// The bodies of the page's move requests, as they go on the wire.
	eval[bool](white, `(function () {
		window.moveBodies = [];
		var open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
		XMLHttpRequest.prototype.open = function (method, url) {
			this.satrancURL = String(url);
			return open.apply(this, arguments);
		};
		XMLHttpRequest.prototype.send = function (body) {
			if (/\/moves$/.test(this.satrancURL || "")) window.moveBodies.push(String(body));
			return send.apply(this, arguments);
		};
		return true;
	})()`)
	playMoves(t, white, black, 0, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4")

	bodies := eval[[]string](white, `window.moveBodies`)
	carried := 0
	for i, body := range bodies {
		form, err := url.ParseQuery(body)
		if err != nil || form.Get("uci") == "" {
			t.Fatalf("White's move %d went as %q, not a move's form: %v", i+1, body, err)
		}
		if form.Get("lag") == "" {
			continue
		}
		carried++
		if held, err := strconv.Atoi(form.Get("held")); err != nil || held < 0 || held > 60_000 {
			t.Errorf("White's move %d carried the ping %q held %q, want a count of milliseconds", i+1, form.Get("lag"), form.Get("held"))
		}
	}
	if carried == 0 {
		t.Errorf("none of White's %d moves carried a lag ping back: %q", len(bodies), bodies)
	}
	if n := eval[int](white, `performance.getEntriesByType("resource").filter(function (e) { return e.name.indexOf("/lag") >= 0; }).length`); n != 0 {
		t.Errorf("the page sent %d lag echoes of their own", n)
	}
	t.Logf("White's moves sent back %d pings: %q", carried, bodies)
}
