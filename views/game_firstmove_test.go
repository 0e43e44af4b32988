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

// TestFirstMoveNotice: while a live timed game waits for a first move the
// panel says who must make it and counts the seconds down, worded for each
// viewer in both languages; the clocks shown do not run. After both first
// moves, in an untimed game and after the end there is no notice.
func TestFirstMoveNotice(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	waiting := func(ucis ...string) play.Snapshot {
		snap := play.Snapshot{ID: 1, Kind: play.Private, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2),
			Control: clock.MustParse("1+0"), Status: game.Active, FirstMoveBy: now.Add(23*time.Second + 400*time.Millisecond),
			Clocks: game.Clocks{Timed: true, White: time.Minute, Black: time.Minute, At: now}}
		playUCI(t, &snap, ucis...)
		return snap
	}
	tests := []struct {
		name   string
		snap   play.Snapshot
		viewer int64
		lang   string
		side   string
		want   string // the notice's text, with the countdown's "24"
	}{
		{"white, to White", waiting(), 1, "en", "white", "Make your first move within 24 s, or the game is aborted."},
		{"white, to Black", waiting(), 2, "en", "white", "If your opponent does not make a first move within 24 s, the game is aborted."},
		{"white, to a spectator", waiting(), 3, "en", "white", "If White does not make a first move within 24 s, the game is aborted."},
		{"black, to Black", waiting("e2e4"), 2, "en", "black", "Make your first move within 24 s, or the game is aborted."},
		{"black, to a spectator", waiting("e2e4"), 0, "en", "black", "If Black does not make a first move within 24 s, the game is aborted."},
		{"Turkish, mine", waiting(), 1, "tr", "white", "İlk hamlenizi 24 saniye içinde yapın; yoksa oyun iptal edilir."},
		{"Turkish, opponent", waiting("e2e4"), 1, "tr", "black", "Rakibiniz ilk hamlesini 24 saniye içinde yapmazsa oyun iptal edilir."},
		{"Turkish, spectator", waiting("e2e4"), 3, "tr", "black", "Siyah ilk hamlesini 24 saniye içinde yapmazsa oyun iptal edilir."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := renderPanel(t, tc.snap, tc.viewer, now, tc.lang)
			notice := doc.Find(`[data-testid="first-move"]`)
			if notice.Length() != 1 {
				t.Fatalf("%d first-move notices, want 1", notice.Length())
			}
			if got := strings.Join(strings.Fields(notice.Text()), " "); got != tc.want {
				t.Errorf("notice %q, want %q", got, tc.want)
			}
			if side, _ := notice.Attr("data-side"); side != tc.side {
				t.Errorf("data-side %q, want %q", side, tc.side)
			}
			cd := notice.Find(`.countdown[data-testid="first-move-countdown"]`)
			if ms, _ := cd.Attr("data-remaining-ms"); ms != "23400" || cd.Text() != "24" {
				t.Errorf("countdown %q ms, shown %q; want 23400 and 24", ms, cd.Text())
			}
			doc.Find(`[data-testid^="clock-"]`).Each(func(_ int, c *goquery.Selection) {
				if r, _ := c.Attr("data-running"); r != "false" {
					t.Errorf("%s data-running=%q before the clocks start", c.AttrOr("data-testid", ""), r)
				}
			})
		})
	}

	started := waiting("e2e4", "e7e5")
	started.FirstMoveBy = time.Time{}
	started.Clocks.Running, started.Clocks.Side = true, chess.White
	untimed := waiting()
	untimed.Control, untimed.FirstMoveBy, untimed.Clocks = clock.Untimed, time.Time{}, game.Clocks{}
	over := waiting()
	over.Status, over.Outcome = game.Aborted, game.Outcome{Reason: game.NoFirstMove, Side: chess.White}
	for name, snap := range map[string]play.Snapshot{"both moved": started, "untimed": untimed, "aborted": over} {
		doc := renderPanel(t, snap, 1, now, "en")
		if n := doc.Find(`[data-testid="first-move"]`).Length(); n != 0 {
			t.Errorf("%s: %d first-move notices, want none", name, n)
		}
		if name == "aborted" {
			if got := strings.TrimSpace(doc.Find(`[data-testid="status"]`).Text()); got != "Game aborted: White did not make a first move in time, so it does not count" {
				t.Errorf("status after the abort %q", got)
			}
		}
	}
}

// renderPanel renders the game panel of snap for viewer at now in lang.
func renderPanel(t *testing.T, snap play.Snapshot, viewer int64, now time.Time, lang string) *goquery.Document {
	t.Helper()
	var b strings.Builder
	if err := GamePanel(viewOf(NewGameView(snap, GameViewInput{Viewer: viewer, Letters: chess.English, Now: now}))).Render(ctxIn(lang), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
