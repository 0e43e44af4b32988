package handlers

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/game"
)

// TestFramesAroundPlayersNames: a player's chosen frame is drawn around
// their name at the table (for every viewer), on the replay and on their
// profile; a player without one gets a plain name.
func TestFramesAroundPlayersNames(t *testing.T) {
	gold := ayse
	gold.Look.Frame = "frame_cup_gold"
	accounts := &fakeAccounts{users: []account.User{gold, bora, cemil}}
	profiles := &fakeProfiles{accounts: accounts}
	live := testSnapshot(t, time.Now(), "e2e4")
	over := testSnapshot(t, time.Now(), "e2e4", "e7e5")
	over.ID = 8
	over.Status, over.Outcome = game.Finished, game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}
	games := newFakeGames(live, over)
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts,
		Games: games, Chat: games, Voice: games, Leaderboard: profiles, Profiles: profiles})
	e := &gameEnv{h: h.Routes()}

	get := func(target string, as *account.User) string {
		t.Helper()
		resp := e.do(t, gameReq{target: target, as: as})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d", target, resp.StatusCode)
		}
		return readBody(t, resp)
	}
	for _, as := range []*account.User{&gold, &bora, &cemil} {
		doc := parse(t, e.do(t, gameReq{target: "/games/7", as: as}))
		white, black := testid(doc, "player-name-white"), testid(doc, "player-name-black")
		if !white.HasClass("frame") || !white.HasClass("frame-cup-gold") || white.AttrOr("data-frame", "") != "frame_cup_gold" {
			t.Errorf("seen by %s: white's name has class %q, want the gold Cup frame", as.Name, white.AttrOr("class", ""))
		}
		if black.HasClass("frame") {
			t.Errorf("seen by %s: black's name has class %q, want no frame", as.Name, black.AttrOr("class", ""))
		}
	}
	body := get("/replay/8", nil)
	if !strings.Contains(body, `class="frame frame-cup-gold" data-frame="frame_cup_gold" data-testid="framed-name">ayse<`) {
		t.Error("the replay does not frame the white player's name")
	}
	if !strings.Contains(get("/players/ayse", &bora), `class="frame frame-cup-gold"`) || strings.Contains(get("/players/bora", &gold), `class="frame `) {
		t.Error("profiles: want ayse's name framed and bora's plain")
	}
}
