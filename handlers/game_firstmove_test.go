package handlers

import (
	"strings"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestGamePageFirstMoveCountdown: the game page of a timed game that waits
// for a first move shows the countdown to each player in their words and
// language, with the seconds the engine gives, and clocks that do not run.
func TestGamePageFirstMoveCountdown(t *testing.T) {
	now := time.Now()
	g := game.New(game.Options{White: game.Human(ayse.ID), Black: game.Human(bora.ID), Control: clock.MustParse("1+0")}, now.Add(-12*time.Second))
	e := newGameEnv(t, snapshotOfGame(testGameID, play.Private, g, now))
	tests := []struct {
		name string
		rq   gameReq
		want string
	}{
		{"white", gameReq{target: "/games/7", as: &ayse, lang: "en"}, "Make your first move within 18 s, or the game is aborted."},
		{"black", gameReq{target: "/games/7", as: &bora, lang: "en"}, "If your opponent does not make a first move within 18 s, the game is aborted."},
		{"spectator", gameReq{target: "/games/7", as: &cemil, lang: "tr"}, "Beyaz ilk hamlesini 18 saniye içinde yapmazsa oyun iptal edilir."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, e.do(t, tc.rq))
			notice := testid(doc, "first-move")
			if got := strings.Join(strings.Fields(notice.Text()), " "); got != tc.want {
				t.Errorf("notice %q, want %q", got, tc.want)
			}
			if side := notice.AttrOr("data-side", ""); side != chess.White.String() {
				t.Errorf("notice for %q, want white", side)
			}
			for _, side := range []string{"clock-white", "clock-black"} {
				if r := testid(doc, side).AttrOr("data-running", ""); r != "false" {
					t.Errorf("%s data-running=%q, want false before the first moves", side, r)
				}
			}
		})
	}
}
