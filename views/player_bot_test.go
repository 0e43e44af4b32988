package views

import (
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestNewBotPlayerPage: a computer name is rated like a member from its
// games (SPEC section 7), whatever the levels that played under it, and
// the same input gives the same page.
func TestNewBotPlayerPage(t *testing.T) {
	at := time.Date(2026, 11, 20, 18, 0, 0, 0, time.UTC)
	name := account.PublicBotName(1, chess.Black)
	var games []play.GameRecord
	levels := []game.Level{game.Medium, game.Hard, game.Easy}
	results := []game.Result{game.WhiteWins, game.BlackWins, game.BlackWins} // a loss, two wins for the name
	for id := int64(1); len(games) < 3; id++ {
		if account.PublicBotName(id, chess.Black) != name {
			continue
		}
		i := len(games)
		games = append(games, play.GameRecord{ID: id, Kind: play.Quick, White: game.Human(9), Black: game.Bot(levels[i]),
			Status: game.Finished, Outcome: game.Outcome{Result: results[i]},
			StartedAt: at.Add(time.Duration(i) * time.Hour), EndedAt: at.Add(time.Duration(i)*time.Hour + 10*time.Minute)})
	}
	// An aborted game, and one under another name, count nowhere.
	games = append(games, play.GameRecord{ID: games[2].ID + 1000, Kind: play.Quick, White: game.Human(9), Black: game.Bot(game.Hard),
		Status: game.Aborted, EndedAt: at.Add(5 * time.Hour)})
	ratings := map[int64]int{}
	for _, g := range games {
		ratings[g.ID] = 1250
	}
	in := BotPageInput{Name: name, Games: games, OpponentRatings: ratings, Names: map[int64]string{9: "ayse"}, Shown: 50}
	v := NewBotPlayerPage(in)
	// 1200 − 40 × 0.43 = 1183; + 40 × 0.60 = 1207; + 40 × 0.56 = 1229.
	if v.Rating != 1229 || v.RatedGames != 3 || v.Wins != 2 || v.Losses != 1 || v.XP != 40 || v.Chart.Games != 3 {
		t.Errorf("page %+v", v)
	}
	if !v.Since.Equal(at) || v.Name != name || v.Games[0].Opponent != "ayse" || !v.Games[0].Rated || v.Games[0].RatingAfter != 1229 {
		t.Errorf("since %v, games %+v", v.Since, v.Games)
	}
	if again := NewBotPlayerPage(in); again.Rating != v.Rating || again.Chart.Line != v.Chart.Line {
		t.Error("the same games gave another page")
	}
	if _, ok := BotName(name); !ok {
		t.Errorf("BotName(%q) not a computer name", name)
	}
	if _, ok := BotName("ayse"); ok {
		t.Error("BotName(ayse) is a computer name")
	}
}

// TestPlayerViewProfilePath: a computer's name at a public table leads to
// a profile as a member's does; a practice opponent has none.
func TestPlayerViewProfilePath(t *testing.T) {
	tests := []struct {
		p    PlayerView
		want string
	}{
		{PlayerView{Name: "ayse"}, "/players/ayse"},
		{PlayerView{IsBot: true, BotName: "deniz_k"}, "/players/deniz_k"},
		{PlayerView{IsBot: true, Bot: game.Easy}, ""},
	}
	for _, tc := range tests {
		if got := tc.p.ProfilePath(); got != tc.want {
			t.Errorf("%+v.ProfilePath() = %q, want %q", tc.p, got, tc.want)
		}
	}
}
