//go:build e2e

package handlers_test

import (
	"net/url"
	"strconv"
	"testing"
)

// TestBrowserLagPingRidesOnMove: the game page sends its stream's latest
// lag ping back with the player's next move, with the milliseconds it held
// it (static/js/board.js), and sends no echo of its own. The move goes in
// the address of a POST without a body.
func TestBrowserLagPingRidesOnMove(t *testing.T) {
	white, black := twoPlayers(t, "5+0")
	// The page's move requests, their addresses and bodies as they go on
	// the wire.
	eval[bool](white, `(function () {
		window.moveRequests = [];
		var open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
		XMLHttpRequest.prototype.open = function (method, url) {
			this.satrancURL = String(url);
			return open.apply(this, arguments);
		};
		XMLHttpRequest.prototype.send = function (body) {
			var u = new URL(this.satrancURL || "", location.href);
			if (/\/moves$/.test(u.pathname)) window.moveRequests.push({query: u.search.slice(1), body: body == null ? "" : String(body)});
			return send.apply(this, arguments);
		};
		return true;
	})()`)
	playMoves(t, white, black, 0, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4")

	type moveRequest struct{ Query, Body string }
	requests := eval[[]moveRequest](white, `window.moveRequests`)
	carried := 0
	for i, req := range requests {
		form, err := url.ParseQuery(req.Query)
		if err != nil || form.Get("uci") == "" || req.Body != "" {
			t.Fatalf("White's move %d went as %+v, not a move in the address without a body: %v", i+1, req, err)
		}
		if form.Get("lag") == "" {
			continue
		}
		carried++
		if held, err := strconv.Atoi(form.Get("held")); err != nil || held < 0 || held > 60_000 {
			t.Errorf("White's move %d carried the ping %q held %q, want a count of milliseconds", i+1, form.Get("lag"), form.Get("held"))
		}
	}
	if len(requests) < 3 {
		t.Fatalf("White's page sent %d move requests, want 3: %+v", len(requests), requests)
	}
	if carried == 0 {
		t.Errorf("none of White's %d moves carried a lag ping back: %+v", len(requests), requests)
	}
	if n := eval[int](white, `performance.getEntriesByType("resource").filter(function (e) { return e.name.indexOf("/lag") >= 0; }).length`); n != 0 {
		t.Errorf("the page sent %d lag echoes of their own", n)
	}
	t.Logf("White's moves sent back %d pings: %+v", carried, requests)
}
