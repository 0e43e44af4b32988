package handlers

import (
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/cosmetics"
	"satranc/engine/play"
)

// cosmeticMarks match what a look changes in a page: the theme's class
// and data-theme, the piece set's folder (and the images' content
// versions), the frame's classes and data-frame, and the key of the
// panel the page shows (views.GameView.PageKey, which sums the look up
// too). appearanceOnly blanks them, so that two renders that differ only
// in looks become equal.
var cosmeticMarks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`theme-[a-z]+`), "theme-*"},
	{regexp.MustCompile(`data-(theme|pieces|frame)="[^"]*"`), `data-$1="*"`},
	{regexp.MustCompile(`/static/img/pieces/(?:[a-z]+/)?([wb][KQRBNP])\.svg\?v=[0-9a-f]+`), "/static/img/pieces/*/$1.svg"},
	{regexp.MustCompile(` ?frame frame-[a-z-]+`), ""},
	{regexp.MustCompile(` class=""`), ""},
	{regexp.MustCompile(`&amp;shown=[0-9a-z]+`), "&amp;shown=*"},
}

func appearanceOnly(html string) string {
	for _, m := range cosmeticMarks {
		html = m.re.ReplaceAllString(html, m.with)
	}
	return html
}

// TestCosmeticsChangeNoRuleOrResult is the figure of SPEC section 9: the
// same game, seen by its players and a spectator wearing different looks,
// has the same moves, legal moves (data-legal), status and result, and
// the pages differ in nothing but the look itself. The game runs to
// checkmate, so the result is covered as well; the rules page's try-it
// boards and the front page are compared the same way.
func TestCosmeticsChangeNoRuleOrResult(t *testing.T) {
	looks := []cosmetics.Look{
		cosmetics.DefaultLook(),
		{Board: "board_walnut", Pieces: "pieces_flat", Frame: "frame_cup_gold"},
		{Board: "board_iznik", Pieces: "pieces_standard", Frame: "frame_cup_silver"},
	}
	mate := []string{"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"} // scholar's mate
	now := time.Now()
	var snaps []play.Snapshot
	for n := range len(mate) + 1 {
		snaps = append(snaps, testSnapshot(t, now, mate[:n]...))
	}
	if !snaps[len(mate)].Status.Over() {
		t.Fatal("the test game does not end")
	}

	// pages[look][request] is the page's body.
	type page struct{ name, body string }
	pages := make([][]page, len(looks))
	for i, look := range looks {
		wear := func(u account.User) account.User { u.Look = look; return u }
		users := []account.User{wear(ayse), wear(bora), wear(cemil)}
		accounts := &fakeAccounts{users: users}
		for n, snap := range snaps {
			games := newFakeGames(snap)
			h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games})
			e := &gameEnv{h: h.Routes(), games: games}
			for _, u := range users {
				for _, rq := range []gameReq{{target: "/games/7", as: &u}, {target: "/games/7", as: &u, htmx: true}, {target: "/rules", as: &u}} {
					if n > 0 && rq.target != "/games/7" {
						continue // once is enough
					}
					resp := e.do(t, rq)
					if resp.StatusCode != http.StatusOK {
						t.Fatalf("GET %s as %s = %d", rq.target, u.Name, resp.StatusCode)
					}
					pages[i] = append(pages[i], page{name: rq.target + " as " + u.Name + " after " + strconv.Itoa(n) + " moves", body: readBody(t, resp)})
				}
			}
			if calls := games.changes(); len(calls) != 0 {
				t.Fatalf("rendering changed the game: %+v", calls)
			}
		}
	}

	// The pages compared hold the rules' output: legal moves for the side
	// to move, and the checkmate's result at the end.
	var legal, mated bool
	for _, p := range pages[0] {
		legal = legal || regexp.MustCompile(`data-legal="[a-h][1-8][a-h][1-8]`).MatchString(p.body)
		mated = mated || regexp.MustCompile(`data-reason="checkmate" data-result="1-0"`).MatchString(p.body)
	}
	if !legal || !mated {
		t.Fatalf("pages show legal moves: %v, the checkmate: %v; want both", legal, mated)
	}
	for i := 1; i < len(looks); i++ {
		differ := 0
		for j, p := range pages[i] {
			base := pages[0][j]
			if p.body != base.body {
				differ++
			}
			if got, want := appearanceOnly(p.body), appearanceOnly(base.body); got != want {
				t.Errorf("%s: wearing %+v the page differs from the default look beyond the look itself: %s", p.name, looks[i], firstDifference(got, want))
			}
		}
		// The looks did reach the pages (so the comparison above means
		// something).
		if differ != len(pages[i]) {
			t.Errorf("look %+v changed %d of %d pages, want every one", looks[i], differ, len(pages[i]))
		}
	}
}

// firstDifference shows where a and b first differ.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(i-60, 0)
	return strconv.Quote(a[from:min(i+60, len(a))]) + " vs " + strconv.Quote(b[from:min(i+60, len(b))])
}
