package handlers

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/account"
)

// TestGamePosition: /games/{id}/position?ply=N draws the board after N
// half-moves, the viewer's side at the bottom and the last move marked; a
// ply the game has not reached, or no number, is a bad request.
func TestGamePosition(t *testing.T) {
	e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4", "e7e5", "g1f3"))
	for _, tc := range []struct {
		name        string
		as          *account.User
		query       string
		status      int
		orientation string
		last        string
	}{
		{"white after e4", &ayse, "?ply=1", http.StatusOK, "white", "e2 e4"},
		{"black after e5", &bora, "?ply=2", http.StatusOK, "black", "e5 e7"},
		{"spectator at the start", &cemil, "?ply=0", http.StatusOK, "white", ""},
		{"beyond the game", &ayse, "?ply=4", http.StatusBadRequest, "", ""},
		{"no number", &ayse, "?ply=x", http.StatusBadRequest, "", ""},
		{"no ply", &ayse, "", http.StatusBadRequest, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := e.do(t, gameReq{target: "/games/7/position" + tc.query, as: tc.as, htmx: true})
			if resp.StatusCode != tc.status {
				t.Fatalf("GET position%s = %d, want %d", tc.query, resp.StatusCode, tc.status)
			}
			if tc.status != http.StatusOK {
				return
			}
			if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control = %q, want no-store", cc)
			}
			doc := parse(t, resp)
			board := testid(doc, "board")
			if o := board.AttrOr("data-orientation", ""); o != tc.orientation {
				t.Errorf("orientation %q, want %q", o, tc.orientation)
			}
			if _, ok := board.Attr("data-interactive"); ok {
				t.Error("a past position takes moves")
			}
			var last []string
			board.Find(".sq-last").Each(func(_ int, s *goquery.Selection) { last = append(last, s.AttrOr("data-square", "")) })
			if got := strings.Join(last, " "); got != tc.last && !(len(last) == 2 && last[1]+" "+last[0] == tc.last) {
				t.Errorf("last move on %q, want %q", got, tc.last)
			}
			if n := board.Find(".coord").Length(); n != 16 {
				t.Errorf("%d coordinates, want 16", n)
			}
			if strings.Contains(doc.Text(), "Satranç") {
				t.Error("the board came with the page around it")
			}
		})
	}
}
