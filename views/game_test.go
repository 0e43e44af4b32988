package views

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
)

var leakedID = regexp.MustCompile(`\b[a-z_]+\.[a-z_]+(\.[a-z_]+)*\b`)

// TestGameTextsTranslated renders every status and every ending in both
// languages: each is a real sentence, never a message ID, and the two
// languages differ.
func TestGameTextsTranslated(t *testing.T) {
	var views []GameView
	for _, st := range []game.Status{game.Waiting, game.Active} {
		for _, player := range []bool{false, true} {
			for _, toMove := range []chess.Color{chess.White, chess.Black} {
				for _, check := range []bool{false, true} {
					views = append(views, GameView{Status: st, Player: player, Side: chess.White, ToMove: toMove, InCheck: check})
				}
			}
		}
	}
	for r := game.Checkmate; r <= game.InviteDeclined; r++ {
		for _, side := range []chess.Color{chess.White, chess.Black} {
			for _, res := range []game.Result{game.WhiteWins, game.BlackWins, game.Draw, game.NoResult} {
				o := game.Outcome{Result: res, Reason: r, Side: side}
				st := game.Finished
				if o.IsAborted() {
					st = game.Aborted
				}
				views = append(views, GameView{Status: st, Outcome: o})
			}
		}
	}
	for _, v := range views {
		en, tr := v.StatusText(ctxIn("en")), v.StatusText(ctxIn("tr"))
		for _, s := range []string{en, tr} {
			if s == "" || leakedID.MatchString(s) {
				t.Errorf("status %v %+v: text %q", v.Status, v.Outcome, s)
			}
		}
		if en == tr {
			t.Errorf("status %v %+v: %q in both languages", v.Status, v.Outcome, en)
		}
	}
}

// playUCI plays the moves from snap's start and sets its moves, position
// and ply.
func playUCI(t *testing.T, snap *play.Snapshot, ucis ...string) {
	t.Helper()
	p := snap.Start
	for _, uci := range ucis {
		m, err := p.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		snap.Moves = append(snap.Moves, game.MoveRecord{Move: m})
		p = p.Play(m)
	}
	snap.Position, snap.Ply = p, len(snap.Moves)
}

// TestGameViewMoveList checks the move rows in the letters of each
// language, and the orientation for each viewer.
func TestGameViewMoveList(t *testing.T) {
	snap := play.Snapshot{ID: 1, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2), Status: game.Active}
	playUCI(t, &snap, "e2e4", "e7e5", "g1f3")
	for _, tc := range []struct {
		letters chess.Letters
		viewer  int64
		want    []MoveRow
		bottom  chess.Color
		legal   bool
	}{
		{chess.English, 1, []MoveRow{{1, "e4", "e5"}, {2, "Nf3", ""}}, chess.White, false},
		{chess.Turkish, 2, []MoveRow{{1, "e4", "e5"}, {2, "Af3", ""}}, chess.Black, true},
		{chess.English, 3, []MoveRow{{1, "e4", "e5"}, {2, "Nf3", ""}}, chess.White, false},
	} {
		v := NewGameView(snap, GameViewInput{Viewer: tc.viewer, Letters: tc.letters})
		var rows []MoveRow
		for _, row := range v.Moves.Rows() {
			rows = append(rows, row)
		}
		if !slices.Equal(rows, tc.want) {
			t.Errorf("viewer %d, letters %s: moves %+v, want %+v", tc.viewer, tc.letters, rows, tc.want)
		}
		if v.Board.Orientation != tc.bottom || v.Bottom.Side != tc.bottom {
			t.Errorf("viewer %d: %s at the bottom, want %s", tc.viewer, v.Board.Orientation, tc.bottom)
		}
		if v.Interactive != tc.legal || (len(v.Legal) > 0) != tc.legal {
			t.Errorf("viewer %d: interactive %v with %d legal moves, want %v", tc.viewer, v.Interactive, len(v.Legal), tc.legal)
		}
		if text := " " + v.LegalText() + " "; tc.legal && (!strings.Contains(text, " b8c6 ") || strings.Count(text, " ") != len(v.Legal)+1) {
			t.Errorf("viewer %d: legal moves %q, want b8c6 among %d", tc.viewer, text, len(v.Legal))
		}
	}

	c := ClockView{Timed: true, Remaining: 9*time.Second + 400*time.Millisecond, Running: true}
	if got := c.Text(); got != "0:09.4" {
		t.Errorf("clock text under 10 s = %q, want 0:09.4", got)
	}
	if got := c.Class(); !strings.Contains(got, "clock-critical") || !strings.Contains(got, "clock-low") {
		t.Errorf("clock class under 10 s = %q", got)
	}
	c.Remaining = 25 * time.Second
	if got := c.Class(); got != "clock clock-low" {
		t.Errorf("clock class under 30 s = %q", got)
	}
	c.Remaining = 65*time.Minute + 5*time.Second
	if got := c.Text(); got != "1:05:05" {
		t.Errorf("clock text over an hour = %q", got)
	}
}

// TestGamePanelStake: a lounge game shows its stake; an unstaked one (the
// same-opponent rule) says so instead, in both languages.
func TestGamePanelStake(t *testing.T) {
	for _, lang := range []string{"en", "tr"} {
		for _, tc := range []struct {
			v      GameView
			testid string
			want   string
		}{
			{GameView{Kind: play.Lounge, Stake: 2500, Status: game.Active}, "stake", "2"},
			{GameView{Kind: play.Lounge, Stake: 2500, Unstaked: true, Status: game.Active}, "unstaked", "24"},
		} {
			var b strings.Builder
			if err := GamePanel(&tc.v).Render(ctxIn(lang), &b); err != nil {
				t.Fatal(err)
			}
			html := b.String()
			i := strings.Index(html, `data-testid="`+tc.testid+`"`)
			if i < 0 {
				t.Errorf("%s: no %s notice in the panel", lang, tc.testid)
				continue
			}
			if text := html[i:min(len(html), i+300)]; !strings.Contains(text, tc.want) || leakedID.MatchString(text[strings.Index(text, ">")+1:]) {
				t.Errorf("%s: %s notice %q", lang, tc.testid, text)
			}
		}
	}
}

// TestGamePanelPlayersOnly: the draw offer, the chat, the opponent's
// disconnection countdown and the notice of one's own lost connection are
// in a player's panel of a live game only; a spectator sees none of them,
// and a finished game has no connection notice.
func TestGamePanelPlayersOnly(t *testing.T) {
	now := time.Now()
	snap := play.Snapshot{ID: 1, Kind: play.Private, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2), Status: game.Active,
		DrawOffer: true, DrawOfferBy: chess.White, DisconnectGrace: 45 * time.Second}
	snap.DisconnectDeadline[chess.White] = now.Add(30 * time.Second)
	playUCI(t, &snap, "e2e4", "e7e5")
	chat := []play.ChatMessage{{User: 1, Body: "good luck"}}
	render := func(s play.Snapshot, viewer int64) string {
		t.Helper()
		in := GameViewInput{Viewer: viewer, Letters: chess.English, Now: now}
		if viewer != 3 {
			in.Chat = chat
		}
		var b strings.Builder
		if err := GamePanel(viewOf(NewGameView(s, in))).Render(ctxIn("en"), &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	private := []string{`data-testid="draw-offered"`, `data-testid="connection-lost"`, `data-testid="opponent-gone"`, "good luck"}
	player := render(snap, 2)
	for _, want := range private {
		if !strings.Contains(player, want) {
			t.Errorf("Black's panel lacks %s", want)
		}
	}
	spectator := render(snap, 3)
	for _, leak := range append(private, `data-testid="actions"`, "draw") {
		if strings.Contains(spectator, leak) {
			t.Errorf("a spectator's panel has %s", leak)
		}
	}
	snap.Status, snap.Outcome = game.Finished, game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}
	if over := render(snap, 2); strings.Contains(over, `data-testid="connection-lost"`) {
		t.Error("a finished game's panel has the connection notice")
	}
}
