package views

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestNoScriptRefresh: the game page's head reloads the page, when
// JavaScript is off, only for a player waiting for the opponent (their
// move, or a friend to sit down), to the game's own address.
func TestNoScriptRefresh(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	snap := func(status game.Status, ucis ...string) play.Snapshot {
		s := play.Snapshot{ID: 7, Kind: play.Private, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2),
			Control: clock.MustParse("3+0"), Status: status, Clocks: game.Clocks{Timed: true, White: 3 * time.Minute, Black: 3 * time.Minute, At: now}}
		if status == game.Waiting {
			s.Black = game.Seat{}
		}
		playUCI(t, &s, ucis...)
		return s
	}
	tests := []struct {
		name   string
		snap   play.Snapshot
		viewer int64
		lang   string
		want   string // the refresh's content, "" for none
	}{
		{"White to move, to White", snap(game.Active), 1, "", ""},
		{"White to move, to Black", snap(game.Active), 2, "", "3; url=/games/7"},
		{"Black to move, to White", snap(game.Active, "e2e4"), 1, "", "3; url=/games/7"},
		{"Black to move, to Black", snap(game.Active, "e2e4"), 2, "", ""},
		{"language from the address", snap(game.Active, "e2e4"), 1, "tr", "3; url=/games/7?lang=tr"},
		{"to a spectator", snap(game.Active, "e2e4"), 3, "", ""},
		{"waiting for the friend", snap(game.Waiting), 1, "", "3; url=/games/7"},
		{"over", snap(game.Aborted, "e2e4"), 1, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := ctxIn("en")
			if tc.lang != "" {
				loc := LocaleFrom(ctxIn(tc.lang))
				loc.FromURL = true
				ctx = WithLocale(ctx, loc)
			}
			var b strings.Builder
			v := NewGameView(tc.snap, GameViewInput{Viewer: tc.viewer, Letters: chess.English, Now: now})
			if err := GamePage(v, nil).Render(ctx, &b); err != nil {
				t.Fatal(err)
			}
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			// goquery parses with scripting on: noscript holds text.
			head := doc.Find("head noscript").Text()
			got := ""
			if doc.Find("head noscript").Length() > 0 {
				inner, err := goquery.NewDocumentFromReader(strings.NewReader(head))
				if err != nil {
					t.Fatal(err)
				}
				got = inner.Find(`meta[http-equiv="refresh"]`).AttrOr("content", "")
			}
			if got != tc.want {
				t.Errorf("refresh %q, want %q (head noscript: %q)", got, tc.want, head)
			}
			if doc.Find(`body meta[http-equiv="refresh"], body noscript meta`).Length() != 0 {
				t.Error("a meta refresh in the body")
			}
		})
	}
}
