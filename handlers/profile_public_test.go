package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/lobby"
	"satranc/engine/play"
)

// fakeProfiles is the Profiles and Leaderboard of the handler tests.
type fakeProfiles struct {
	accounts *fakeAccounts
	games    []play.GameRecord
	// botGames are the public games with a computer player, oldest
	// first; botRatings their human players' ratings before them.
	botGames   []play.GameRecord
	botRatings map[int64]int
}

func (f *fakeProfiles) PublicBotGames(_ context.Context, name string) ([]play.GameRecord, error) {
	var out []play.GameRecord
	for _, g := range f.botGames {
		if (g.White.IsBot() && account.PublicBotName(g.ID, chess.White) == name) ||
			(g.Black.IsBot() && account.PublicBotName(g.ID, chess.Black) == name) {
			out = append(out, g)
		}
	}
	return out, nil
}

func (f *fakeProfiles) PublicBotOpponentRatings(ctx context.Context, name string) (map[int64]int, error) {
	games, _ := f.PublicBotGames(ctx, name)
	out := map[int64]int{}
	for _, g := range games {
		if r, ok := f.botRatings[g.ID]; ok {
			out[g.ID] = r
		}
	}
	return out, nil
}

func (f *fakeProfiles) PublicBotsSince(context.Context) (time.Time, error) {
	if len(f.botGames) == 0 {
		return time.Time{}, nil
	}
	return f.botGames[0].StartedAt, nil
}

func (f *fakeProfiles) UserByName(_ context.Context, name string) (account.User, error) {
	for _, u := range f.accounts.users {
		if u.Name == name {
			return u, nil
		}
	}
	return account.User{}, account.ErrNotFound
}

func (f *fakeProfiles) Stats(context.Context, int64) (play.Stats, error) {
	return play.Stats{Rating: 1234, RatedGames: 3, Wins: 2, Draws: 0, Losses: 1, XP: 140}, nil
}

func (f *fakeProfiles) Rating(ctx context.Context, user int64) (int, error) {
	st, err := f.Stats(ctx, user)
	return st.Rating, err
}

func (f *fakeProfiles) RatingHistory(context.Context, int64) ([]play.RatingChange, error) {
	return []play.RatingChange{{GameID: 1, Before: 1200, After: 1220}, {GameID: 2, Before: 1220, After: 1234}}, nil
}

func (f *fakeProfiles) Balance(context.Context, int64) (int64, error) { return 5_450, nil }

func (f *fakeProfiles) PlayerGames(context.Context, int64, int) ([]play.GameRecord, error) {
	return f.games, nil
}

func (f *fakeProfiles) Leaderboard(_ context.Context, limit int) ([]lobby.Standing, error) {
	return []lobby.Standing{{Rank: 1, User: bora.ID, Name: bora.Name, Rating: 1400}}, nil
}

func (f *fakeProfiles) StandingOf(_ context.Context, user int64) (lobby.Standing, error) {
	return lobby.Standing{Rank: 170, User: user, Name: ayse.Name, Rating: 1100}, nil
}

func newProfileEnv(t *testing.T, snaps ...play.Snapshot) *gameEnv {
	t.Helper()
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	profiles := &fakeProfiles{accounts: accounts, games: []play.GameRecord{{
		ID: testGameID, Kind: play.Quick, White: game.Human(ayse.ID), Black: game.Bot(game.Medium),
		Control: clock.MustParse("5+0"), Status: game.Finished, Outcome: game.Outcome{Result: game.WhiteWins},
		EndedAt: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC),
	}}}
	games := newFakeGames(snaps...)
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts,
		Games: games, Chat: games, Voice: games, Leaderboard: profiles, Profiles: profiles})
	return &gameEnv{h: h.Routes()}
}

func TestLeaderboardPage(t *testing.T) {
	env := newProfileEnv(t)
	resp := env.do(t, gameReq{target: "/leaderboard", as: &ayse})
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /leaderboard = %d, %v", resp.StatusCode, err)
	}
	if got := doc.Find(`[data-testid="standing"]`).Length(); got != 1 {
		t.Errorf("%d standings, want 1", got)
	}
	if got, _ := doc.Find(`[data-testid="my-standing"]`).Attr("data-rank"); got != "170" {
		t.Errorf("own rank %q, want 170", got)
	}
	resp = env.do(t, gameReq{target: "/leaderboard"})
	if body := readBody(t, resp); resp.StatusCode != http.StatusOK || strings.Contains(body, "my-standing") {
		t.Errorf("guest leaderboard = %d, want 200 without an own rank", resp.StatusCode)
	}
}

func TestPlayerPage(t *testing.T) {
	env := newProfileEnv(t)
	tests := []struct {
		name    string
		as      *account.User
		balance bool
	}{{"own", &ayse, true}, {"someone else's", &bora, false}, {"guest", nil, false}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.do(t, gameReq{target: "/players/ayse", as: tc.as})
			doc, err := goquery.NewDocumentFromReader(resp.Body)
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("GET /players/ayse = %d, %v", resp.StatusCode, err)
			}
			if got := doc.Find(`[data-testid="profile-balance"]`).Length() == 1; got != tc.balance {
				t.Errorf("balance shown %v, want %v", got, tc.balance)
			}
			if got := doc.Find(`[data-testid="chips-notice"]`).Length() == 1; got != tc.balance {
				t.Errorf("chips notice shown %v, want %v", got, tc.balance)
			}
			if doc.Find(`[data-testid="player-rating"]`).Text() != "1234" || doc.Find(`[data-testid="rating-chart"] polyline`).Length() != 1 {
				t.Error("rating or chart missing")
			}
			// 3 rated games, 2 wins and a loss, 140 XP: level 2, 40 XP into it.
			level := doc.Find(`[data-testid="player-level"]`)
			progress, _ := level.Find("progress").Attr("value")
			if doc.Find(`[data-testid="player-rated-games"]`).Text() != "3" ||
				strings.TrimSpace(doc.Find(`[data-testid="player-results"]`).Text()) != "2 / 0 / 1" ||
				strings.TrimSpace(level.Text()) != "Level 2 (140 XP)" || progress != "40" {
				t.Errorf("rated games %q, results %q, level %q (progress %s)", doc.Find(`[data-testid="player-rated-games"]`).Text(),
					doc.Find(`[data-testid="player-results"]`).Text(), level.Text(), progress)
			}
			row := doc.Find(`[data-testid="past-game"]`)
			if s, _ := row.Attr("data-score"); s != "win" || strings.Contains(row.Text(), "Computer") {
				t.Errorf("past game %q score %q, want a win against a named player", row.Text(), s)
			}
			if href, _ := row.Find(`[data-testid="past-game-replay"]`).Attr("href"); href != "/replay/7" {
				t.Errorf("replay link %q", href)
			}
		})
	}
	if resp := env.do(t, gameReq{target: "/players/nobody"}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /players/nobody = %d, want 404", resp.StatusCode)
	}
}

func TestReplayPage(t *testing.T) {
	now := time.Now()
	snap := testSnapshot(t, now, "e2e4", "e7e5", "g1f3")
	snap.Status, snap.Outcome = game.Finished, game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}
	env := newProfileEnv(t, snap)
	tests := []struct {
		query     string
		ply, prev string
	}{{"", "3", "/replay/7?ply=2"}, {"?ply=1", "1", "/replay/7?ply=0"}, {"?ply=0", "0", "/replay/7?ply=0"}, {"?ply=99", "3", "/replay/7?ply=2"}}
	for _, tc := range tests {
		resp := env.do(t, gameReq{target: "/replay/7" + tc.query})
		doc, err := goquery.NewDocumentFromReader(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /replay/7%s = %d, %v", tc.query, resp.StatusCode, err)
		}
		if got, _ := doc.Find(`[data-testid="replay"]`).Attr("data-ply"); got != tc.ply {
			t.Errorf("GET /replay/7%s: ply %s, want %s", tc.query, got, tc.ply)
		}
		if got, _ := doc.Find(`[data-testid="replay-prev"]`).Attr("href"); got != tc.prev {
			t.Errorf("GET /replay/7%s: previous %q, want %q", tc.query, got, tc.prev)
		}
		if got, _ := doc.Find(`[data-testid="replay-pgn"]`).Attr("href"); got != "/games/7/pgn" {
			t.Errorf("PGN link %q", got)
		}
	}
	if resp := env.do(t, gameReq{target: "/replay/7?ply=x"}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("GET /replay/7?ply=x = %d, want 400", resp.StatusCode)
	}
	if doc := replayDoc(t, env); doc.Find(`[data-testid="replay-voided"]`).Length() != 0 {
		t.Error("a result that stands is shown as voided")
	}
}

// TestReplayPageVoided: the replay of a game whose result an administrator
// voided says so, in the page's language.
func TestReplayPageVoided(t *testing.T) {
	now := time.Now()
	snap := testSnapshot(t, now, "e2e4", "e7e5")
	snap.Status, snap.Outcome = game.Finished, game.Outcome{Result: game.BlackWins, Reason: game.Resignation, Side: chess.White}
	snap.VoidedAt = now
	env := newProfileEnv(t, snap)
	got := strings.TrimSpace(replayDoc(t, env).Find(`[data-testid="replay-voided"]`).Text())
	if !strings.HasPrefix(got, "An administrator voided this result") {
		t.Errorf("voided notice = %q", got)
	}
	resp := env.do(t, gameReq{target: "/replay/7", lang: "tr"})
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(doc.Find(`[data-testid="replay-voided"]`).Text()); !strings.HasPrefix(got, "Bu sonucu bir yönetici geçersiz saydı") {
		t.Errorf("Turkish voided notice = %q", got)
	}
}

// replayDoc fetches the replay of game 7.
func replayDoc(t *testing.T, env *gameEnv) *goquery.Document {
	t.Helper()
	resp := env.do(t, gameReq{target: "/replay/7"})
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /replay/7 = %d, %v", resp.StatusCode, err)
	}
	return doc
}
