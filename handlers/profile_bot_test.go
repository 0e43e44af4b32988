package handlers

import (
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// newBotProfileEnv serves profiles with public games against computer
// players: ayse's game 7 (the Medium computer as Black) and two more of
// bora's, one a level up; it returns the name the computer played game 7
// under.
func newBotProfileEnv(t *testing.T) (*gameEnv, string) {
	t.Helper()
	at := time.Date(2026, 11, 20, 18, 0, 0, 0, time.UTC)
	record := func(id int64, human account.User, bot game.Level, r game.Result, ended time.Time) play.GameRecord {
		return play.GameRecord{ID: id, Kind: play.Quick, White: game.Human(human.ID), Black: game.Bot(bot),
			Control: clock.MustParse("5+0"), Status: game.Finished, Outcome: game.Outcome{Result: r},
			CreatedAt: ended.Add(-10 * time.Minute), StartedAt: ended.Add(-9 * time.Minute), EndedAt: ended}
	}
	name := account.PublicBotName(testGameID, chess.Black)
	games := []play.GameRecord{record(testGameID, ayse, game.Medium, game.WhiteWins, at)}
	// Two more games under the same name (IDs picked for it), and one
	// under another name.
	other, under := "", 1
	for id := int64(100); under < 3 || other == ""; id++ {
		n := account.PublicBotName(id, chess.Black)
		switch {
		case n == name && under < 3:
			under++
			games = append(games, record(id, bora, game.Hard, game.BlackWins, at.Add(time.Duration(under)*48*time.Hour)))
		case n != name && other == "":
			other = n
			games = append(games, record(id, cemil, game.Easy, game.Draw, at.Add(time.Hour)))
		}
	}
	sort.Slice(games, func(i, j int) bool { return games[i].EndedAt.Before(games[j].EndedAt) })
	// Members joined some time ago, as in the database.
	users := []account.User{ayse, bora, cemil}
	for i := range users {
		users[i].CreatedAt = at.Add(-30 * 24 * time.Hour)
	}
	accounts := &fakeAccounts{users: users}
	ratings := map[int64]int{}
	for _, g := range games {
		ratings[g.ID] = 1250
	}
	profiles := &fakeProfiles{accounts: accounts, botGames: games, botRatings: ratings, games: []play.GameRecord{games[0]}}
	fake := newFakeGames()
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts,
		Games: fake, Chat: fake, Voice: fake, Leaderboard: profiles, Profiles: profiles})
	return &gameEnv{h: h.Routes()}, name
}

// TestBotPlayerPage: the name a computer player went by at a public table
// has a profile, in any case, with the games played under it, each
// linking its human opponent and replay; a name nobody has is not found.
func TestBotPlayerPage(t *testing.T) {
	env, name := newBotProfileEnv(t)
	for _, target := range []string{"/players/" + name, "/players/" + strings.ToUpper(name)} {
		resp := env.do(t, gameReq{target: target, as: &cemil})
		doc, err := goquery.NewDocumentFromReader(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d, %v", target, resp.StatusCode, err)
		}
		if got := strings.TrimSpace(doc.Find(`[data-testid="player-name"]`).Text()); got != name {
			t.Errorf("name %q, want %q", got, name)
		}
		rows := doc.Find(`[data-testid="past-game"]`)
		if rows.Length() != 3 {
			t.Fatalf("%d past games, want the 3 played under %s", rows.Length(), name)
		}
		// The latest first: two losses to bora at 1250, then a win for ayse.
		var scores, opponents []string
		rows.Each(func(_ int, r *goquery.Selection) {
			s, _ := r.Attr("data-score")
			href, _ := r.Find(`[data-testid="past-game-opponent"]`).Attr("href")
			scores, opponents = append(scores, s), append(opponents, href)
		})
		if strings.Join(scores, " ") != "win win loss" || strings.Join(opponents, " ") != "/players/bora /players/bora /players/ayse" {
			t.Errorf("past games %v against %v", scores, opponents)
		}
		if href, _ := rows.Last().Find(`[data-testid="past-game-replay"]`).Attr("href"); href != "/replay/7" {
			t.Errorf("replay link %q", href)
		}
		// Rated from 1200 like a member: a loss then two wins against 1250s.
		if doc.Find(`[data-testid="player-rated-games"]`).Text() != "3" ||
			strings.TrimSpace(doc.Find(`[data-testid="player-results"]`).Text()) != "2 / 0 / 1" ||
			doc.Find(`[data-testid="chart-point"]`).Length() != 3 {
			t.Errorf("figures: rated %q, results %q, %d chart points", doc.Find(`[data-testid="player-rated-games"]`).Text(),
				doc.Find(`[data-testid="player-results"]`).Text(), doc.Find(`[data-testid="chart-point"]`).Length())
		}
		if r := doc.Find(`[data-testid="player-rating"]`).Text(); r == "800" || r == "1300" || r == "1700" || r == "1200" {
			t.Errorf("rating %s: a level's or the start, not rated from the games", r)
		}
		if doc.Find(`[data-testid="profile-balance"]`).Length() != 0 {
			t.Error("a computer name's page shows a balance")
		}
	}
	for _, target := range []string{"/players/nobody", "/players/" + name + "x"} {
		if resp := env.do(t, gameReq{target: target}); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", target, resp.StatusCode)
		}
	}
}

// TestBotPageLikeMembers: a computer name's page and a member's carry the
// same parts (data-testids), so nothing in the page's structure tells
// them apart.
func TestBotPageLikeMembers(t *testing.T) {
	env, name := newBotProfileEnv(t)
	parts := func(target string) []string {
		resp := env.do(t, gameReq{target: target, as: &cemil})
		doc, err := goquery.NewDocumentFromReader(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d, %v", target, resp.StatusCode, err)
		}
		seen := map[string]bool{}
		doc.Find(`[data-testid]`).Each(func(_ int, s *goquery.Selection) {
			id, _ := s.Attr("data-testid")
			seen[id] = true
		})
		var out []string
		for id := range seen {
			out = append(out, id)
		}
		sort.Strings(out)
		return out
	}
	member, bot := parts("/players/ayse"), parts("/players/"+name)
	if strings.Join(member, " ") != strings.Join(bot, " ") {
		t.Errorf("a member's page has %v,\nthe computer name's %v", member, bot)
	}
}

// TestMemberPastGameLinks: on a member's page the opponent at a public
// table links to its profile, a computer's name like a member's.
func TestMemberPastGameLinks(t *testing.T) {
	env, name := newBotProfileEnv(t)
	resp := env.do(t, gameReq{target: "/players/ayse"})
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /players/ayse = %d, %v", resp.StatusCode, err)
	}
	if href, _ := doc.Find(`[data-testid="past-game-opponent"]`).Attr("href"); href != views.PlayerPath(name) {
		t.Errorf("opponent link %q, want %q", href, views.PlayerPath(name))
	}
}

// TestBotPlayerPageNoGames: a computer name that has not played yet has a
// page (it joined with the first computer player at a public table),
// unless no computer player ever sat at one.
func TestBotPlayerPageNoGames(t *testing.T) {
	env, _ := newBotProfileEnv(t)
	unused := "" // a name none of the test's games went by
	for _, n := range account.BotNames {
		resp := env.do(t, gameReq{target: "/players/" + n})
		doc, err := goquery.NewDocumentFromReader(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /players/%s = %d, %v", n, resp.StatusCode, err)
		}
		if doc.Find(`[data-testid="past-game"]`).Length() == 0 {
			unused = n
			if doc.Find(`[data-testid="no-past-games"]`).Length() != 1 || doc.Find(`[data-testid="rating-chart-empty"]`).Length() != 1 ||
				doc.Find(`[data-testid="player-rating"]`).Text() != "1200" || doc.Find(`[data-testid="player-since"]`).Length() != 1 {
				t.Errorf("%s without games: not a new member's page", n)
			}
			break
		}
	}
	if unused == "" {
		t.Fatal("every computer name has played")
	}
	empty := newProfileEnv(t) // no computer player ever
	if resp := empty.do(t, gameReq{target: "/players/" + unused}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /players/%s with no computer games at all = %d, want 404", unused, resp.StatusCode)
	}
}
