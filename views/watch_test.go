package views

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/engine/tourney"
)

func renderWatch(t *testing.T, ctx context.Context, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestMiniClockText(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{5*time.Minute + 900*time.Millisecond, "5:00"},
		{9*time.Second + 999*time.Millisecond, "0:09"},
		{-time.Second, "0:00"},
		{time.Hour + 61*time.Second, "1:01:01"},
	} {
		if got := MiniClockText(ClockView{Remaining: tc.d}); got != tc.want {
			t.Errorf("MiniClockText(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestMiniGame: a public table's game as a mini-board: White at the
// bottom, a bot by its ordinary player name and fixed rating, the running
// clock counted down to the time of drawing.
func TestMiniGame(t *testing.T) {
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	snap := play.Snapshot{
		ID: 9, Kind: play.Quick, White: game.Human(4), Black: game.Bot(game.Hard),
		Control: clock.MustParse("3+2"), Status: game.Active, Position: chess.StartPosition(), Ply: 0,
		Clocks: game.Clocks{Timed: true, White: time.Minute, Black: 3 * time.Minute, Running: true, Side: chess.White, At: at},
	}
	g := NewMiniGame(snap, map[int64]string{4: "ayse"}, map[int64]int{4: 1500}).AtTime(at.Add(10 * time.Second))
	if g.Bottom.Side != chess.White || g.Bottom.Name != "ayse" || g.Bottom.Rating != 1500 {
		t.Errorf("bottom = %+v, want ayse (White) rated 1500", g.Bottom)
	}
	if g.Top.BotName != account.PublicBotName(9, chess.Black) || g.Top.Rating == 0 {
		t.Errorf("top = %+v, want the bot by its public name and rating", g.Top)
	}
	if g.Bottom.Clock.Remaining != 50*time.Second || g.Top.Clock.Remaining != 3*time.Minute {
		t.Errorf("clocks %v and %v, want 50s running and 3m stopped", g.Bottom.Clock.Remaining, g.Top.Clock.Remaining)
	}
	doc := renderWatch(t, ctxIn("en"), WatchList([]MiniGame{g}))
	link := doc.Find(`[data-testid="mini-game"][data-game-id="9"] a[href="/games/9"]`)
	if link.Length() != 1 {
		t.Fatal("no link to the game")
	}
	if got := link.Find(`[data-testid="mini-player-black"] .mini-name`).Text(); got != account.PublicBotName(9, chess.Black) {
		t.Errorf("Black's name = %q, want the bot's public name", got)
	}
	if n := link.Find(`[data-testid="mini-board"] .sq`).Length(); n != 64 {
		t.Errorf("%d squares, want 64", n)
	}
	if got := link.Find(`[data-testid="mini-clock-white"]`).Text(); got != "0:50" {
		t.Errorf("White's clock = %q, want 0:50", got)
	}
}

// TestHomeCup: the home page lists today's Daily Chess Cup leaders with
// their points, and links to the standings.
func TestHomeCup(t *testing.T) {
	v := HomeView{Cup: true, Leaders: []tourney.Standing{{Rank: 1, Name: "ayse", Points: 7}, {Rank: 2, Name: "bora", Points: 1}}}
	doc := renderWatch(t, ctxIn("en"), HomePage(v))
	leaders := doc.Find(`[data-testid="home-leader"]`)
	if leaders.Length() != 2 {
		t.Fatalf("%d leaders, want 2", leaders.Length())
	}
	if got := leaders.Eq(1).Find(".home-leader-points").Text(); got != "1 point" {
		t.Errorf("bora's points = %q, want 1 point", got)
	}
	if href, _ := doc.Find(`[data-testid="home-cup-link"]`).Attr("href"); href != "/tournaments/daily" {
		t.Errorf("standings link = %q", href)
	}
}
