package handlers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/chess"
)

// get sends a GET of target as p and returns the response.
func (e *stackEnv) get(target string, p player) *http.Response {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.AddCookie(p.cookie)
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec.Result()
}

// seated polls p's waiting page until the lobby has started their game,
// and returns the game and the page (nil when the page sent p straight to
// the table).
func (e *stackEnv) seated(t *testing.T, p player) (int64, *goquery.Document) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		resp := e.get("/lobby/wait", p)
		if to := resp.Header.Get("Location"); resp.StatusCode == http.StatusSeeOther && strings.HasPrefix(to, "/games/") {
			id, err := strconv.ParseInt(strings.TrimPrefix(to, "/games/"), 10, 64)
			if err != nil {
				t.Fatalf("%s sent to %q", p.Name, to)
			}
			return id, nil
		}
		doc, err := goquery.NewDocumentFromReader(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: GET /lobby/wait = %d, %v", p.Name, resp.StatusCode, err)
		}
		if g, _ := doc.Find(`[data-testid="wait-panel"]`).Attr("data-game"); g != "" && g != "0" {
			id, _ := strconv.ParseInt(g, 10, 64)
			return id, doc
		}
	}
	t.Fatalf("%s was not seated within 10 s", p.Name)
	return 0, nil
}

// TestSameOpponentAnnounced: through the whole site on SQLite, two players
// sit down in Kahvehane together four times. The first three games are
// aborted at once (a resignation before two moves: both stakes back). The
// fourth is the pair's 4th lounge game within 24 hours: the waiting page
// and then the table say before the first move that it is unstaked, no
// chip is held, and played to the end it changes neither chips nor
// ratings (SPEC section 5, same opponent again).
func TestSameOpponentAnnounced(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	ctx := context.Background()
	a, b := e.player(t, "asli"), e.player(t, "baran")
	var id int64
	for round := 1; round <= 4; round++ {
		for _, p := range []player{a, b} {
			if resp := e.post("/lobby/join", "lounge=kahvehane&control=5%2B0", p, false); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("round %d: %s's join = %d, want 303", round, p.Name, resp.StatusCode)
			}
		}
		var pages [2]*goquery.Document
		for i, p := range []player{a, b} {
			var got int64
			got, pages[i] = e.seated(t, p)
			if i == 1 && got != id {
				t.Fatalf("round %d: seated in games %d and %d", round, id, got)
			}
			id = got
		}
		rec, err := e.store.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if want := round == 4; rec.Unstaked != want {
			t.Fatalf("round %d: game %d unstaked %v, want %v", round, id, rec.Unstaked, want)
		}
		for i, p := range []player{a, b} {
			notice := pages[i] != nil && pages[i].Find(`[data-testid="unstaked-notice"]`).Length() == 1
			if notice != rec.Unstaked {
				t.Errorf("round %d: %s's waiting page announces unstaked: %v, want %v", round, p.Name, notice, rec.Unstaked)
			}
			want := int64(4_500)
			if rec.Unstaked {
				want = 5_000
			}
			if n, err := e.store.Balance(ctx, p.ID); n != want || err != nil {
				t.Errorf("round %d: %s has %d chips during the game (%v), want %d", round, p.Name, n, err, want)
			}
		}
		if round < 4 {
			if resp := e.post("/games/"+strconv.FormatInt(id, 10)+"/resign", "", a, false); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("round %d: resign = %d", round, resp.StatusCode)
			}
		}
	}

	// The table says so before the first move.
	for _, p := range []player{a, b} {
		resp := e.get("/games/"+strconv.FormatInt(id, 10), p)
		doc, err := goquery.NewDocumentFromReader(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET the game as %s = %d, %v", p.Name, resp.StatusCode, err)
		}
		if doc.Find(`[data-testid="unstaked"]`).Length() != 1 || doc.Find(`[data-testid="stake"]`).Length() != 0 {
			t.Errorf("%s's table does not say the game is unstaked", p.Name)
		}
	}

	// Played to the end, it moves no chip and no rating.
	white, black := a, b
	snap := e.snapshot(t, id)
	if side, _ := snap.SideOf(a.ID); side != chess.White {
		white, black = b, a
	}
	for ply, m := range []string{"e4", "e5", "Nf3", "Nc6"} {
		mover := white
		if ply%2 == 1 {
			mover = black
		}
		if err := e.games.Move(ctx, id, mover.ID, m, chess.English, ply); err != nil {
			t.Fatalf("move %s: %v", m, err)
		}
	}
	if err := e.games.Resign(ctx, id, black.ID); err != nil {
		t.Fatal(err)
	}
	for _, p := range []player{a, b} {
		st, err := e.store.Stats(ctx, p.ID)
		if err != nil || st.Rating != 1200 || st.RatedGames != 0 {
			t.Errorf("%s after the unstaked game: %+v, %v; want 1200 and no rated game", p.Name, st, err)
		}
		if n, err := e.store.Balance(ctx, p.ID); n != 5_000 || err != nil {
			t.Errorf("%s has %d chips after the unstaked game (%v), want 5,000", p.Name, n, err)
		}
	}
	// Their own profiles: no rated game, the finished game in the record
	// and its experience (10 XP, 5 more for the win; the aborted games
	// earn none), and the chips.
	for _, c := range []struct {
		p              player
		results, level string
	}{{white, "1 / 0 / 0", "Level 1 (15 XP)"}, {black, "0 / 0 / 1", "Level 1 (10 XP)"}} {
		resp := e.get("/players/"+c.p.Name, c.p)
		doc, err := goquery.NewDocumentFromReader(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s's profile = %d, %v", c.p.Name, resp.StatusCode, err)
		}
		got := func(id string) string { return strings.TrimSpace(doc.Find(`[data-testid="` + id + `"]`).Text()) }
		if got("player-rating") != "1200" || got("player-rated-games") != "0" || got("player-results") != c.results ||
			got("player-level") != c.level || !strings.Contains(got("profile-balance"), "5,000") {
			t.Errorf("%s's profile: rating %s, rated games %s, results %s, %s, %s", c.p.Name, got("player-rating"),
				got("player-rated-games"), got("player-results"), got("player-level"), got("profile-balance"))
		}
	}
}
