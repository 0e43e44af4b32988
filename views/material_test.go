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

// takenText writes a side's taken pieces as FEN letters, such as "ppN".
func takenText(m Material) string {
	var b strings.Builder
	for _, t := range m.Taken {
		b.WriteString(strings.Repeat(string(rune(t.Piece.FENLetter())), t.Count))
	}
	return b.String()
}

func TestNewMaterial(t *testing.T) {
	for _, tc := range []struct {
		name, fen                string
		whiteTook, blackTook     string
		whiteLead, blackLead     int
		whiteLeadText, blackText string
	}{
		{"start", chess.StartFEN, "", "", 0, 0, "", ""},
		{"a pawn up", "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", "p", "", 1, 0, "+1", ""},
		{"pawns traded", "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "p", "P", 0, 0, "", ""},
		{"White took a knight", "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "n", "", 3, 0, "+3", ""},
		{"exchange: rook for knight", "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w Qq - 0 1", "r", "N", 2, 0, "+2", ""},
		// Black promoted a pawn to a second queen on h1, taking the rook:
		// five black pawns are missing, but one was not taken.
		{"promotion", "rnbqkbnr/ppp5/8/8/8/8/PPPPPPPP/RNBQKBNq w Qkq - 0 1", "pppp", "R", 0, 9, "", "+9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			white, black := NewMaterial(mustParseFEN(t, tc.fen))
			if got := takenText(white); got != tc.whiteTook {
				t.Errorf("White took %q, want %q", got, tc.whiteTook)
			}
			if got := takenText(black); got != tc.blackTook {
				t.Errorf("Black took %q, want %q", got, tc.blackTook)
			}
			if white.Lead != tc.whiteLead || black.Lead != tc.blackLead {
				t.Errorf("leads %d and %d, want %d and %d", white.Lead, black.Lead, tc.whiteLead, tc.blackLead)
			}
			if white.LeadText() != tc.whiteLeadText || black.LeadText() != tc.blackText {
				t.Errorf("lead texts %q and %q, want %q and %q", white.LeadText(), black.LeadText(), tc.whiteLeadText, tc.blackText)
			}
		})
	}
}

// TestPlayerBarsMaterial: after 1.e4 d5 2.exd5 the bars show White's
// captured pawn and +1, for every viewer, with the players' ratings in a
// rated game and none in a private one.
func TestPlayerBarsMaterial(t *testing.T) {
	for _, kind := range []play.Kind{play.Private, play.Quick} {
		snap := play.Snapshot{ID: 1, Kind: kind, Start: chess.StartPosition(), White: game.Human(1), Black: game.Bot(game.Medium), Status: game.Active}
		playUCI(t, &snap, "e2e4", "d7d5", "e4d5")
		in := GameViewInput{Viewer: 1, Letters: chess.English, Ratings: map[int64]int{1: 1512}}
		var b strings.Builder
		if err := GamePanel(viewOf(NewGameView(snap, in))).Render(ctxIn("en"), &b); err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		white := doc.Find(`[data-testid="material-white"]`)
		if lead := white.AttrOr("data-lead", ""); lead != "1" || white.Find(`.taken[data-piece="bP"] i`).Length() != 1 || !strings.Contains(white.Text(), "+1") {
			t.Errorf("%s: White's material %q (lead %s), want a black pawn and +1", kind, white.Text(), lead)
		}
		if black := doc.Find(`[data-testid="material-black"]`); black.AttrOr("data-lead", "") != "0" || black.Find(".taken i").Length() != 0 {
			t.Errorf("%s: Black's material shows %d pieces, lead %s", kind, black.Find(".taken i").Length(), black.AttrOr("data-lead", ""))
		}
		ratings := doc.Find(`[data-testid="player-rating-white"]`).Text() + " " + doc.Find(`[data-testid="player-rating-black"]`).Text()
		want := " "
		if kind == play.Quick {
			want = "1512 1300" // a bot's fixed rating
		}
		if ratings != want {
			t.Errorf("%s: ratings %q, want %q", kind, ratings, want)
		}
	}
}

// TestMoveListEnd: a finished game's move list ends with the score and the
// reason; a running game's has no end; the moves carry their plies, also
// in a game that starts with Black to move.
func TestMoveListEnd(t *testing.T) {
	snap := play.Snapshot{ID: 1, Kind: play.Private, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2), Status: game.Active}
	playUCI(t, &snap, "f2f3", "e7e5", "g2g4", "d8h4")
	render := func(s play.Snapshot, lang string) *goquery.Document {
		t.Helper()
		var b strings.Builder
		if err := GamePanel(viewOf(NewGameView(s, GameViewInput{Viewer: 1, Letters: chess.English}))).Render(ctxIn(lang), &b); err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	doc := render(snap, "en")
	if doc.Find(`[data-testid="move-list-end"]`).Length() != 0 {
		t.Error("a running game's move list has an end")
	}
	var plies []string
	doc.Find(`[data-testid="move"]`).Each(func(_ int, s *goquery.Selection) { plies = append(plies, s.AttrOr("data-ply", "")) })
	if got := strings.Join(plies, " "); got != "1 2 3 4" {
		t.Errorf("plies %q, want 1 2 3 4", got)
	}
	if last := doc.Find(".move-last"); last.Text() != "Qh4#" {
		t.Errorf("last move marked %q, want Qh4#", last.Text())
	}
	if moves := doc.Find(`#moves[tabindex="0"][role="region"]`); moves.AttrOr("aria-label", "") != "Moves" {
		t.Errorf("the move list is not a focusable region labelled Moves: %d found", moves.Length())
	}

	for _, tc := range []struct {
		outcome    game.Outcome
		status     game.Status
		lang       string
		score, end string
	}{
		{game.Outcome{Result: game.BlackWins, Reason: game.Checkmate, Side: chess.White}, game.Finished, "en", "0-1", "Checkmate"},
		{game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}, game.Finished, "tr", "1-0", "Siyah"},
		{game.Outcome{Result: game.Draw, Reason: game.Agreement}, game.Finished, "en", "½-½", "agreement"},
		{game.Outcome{Reason: game.Abort, Side: chess.White}, game.Aborted, "en", "", "aborted"},
	} {
		s := snap
		s.Status, s.Outcome = tc.status, tc.outcome
		end := render(s, tc.lang).Find(`.moves-body > [data-testid="move-list-end"]:last-child`)
		if score := end.Find(`[data-testid="move-score"]`).Text(); score != tc.score {
			t.Errorf("%v: score %q, want %q", tc.outcome, score, tc.score)
		}
		if text := end.Text(); !strings.Contains(text, tc.end) || leakedID.MatchString(text) {
			t.Errorf("%v in %s: end %q, want it to say %q", tc.outcome, tc.lang, text, tc.end)
		}
	}

	black := play.Snapshot{ID: 2, Start: mustParseFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), Status: game.Active}
	playUCI(t, &black, "e7e5", "g1f3")
	v := NewGameView(black, GameViewInput{Letters: chess.English})
	if v.Moves.Len() != 2 || v.Moves.Row(0) != (MoveRow{1, "", "e5"}) || v.Moves.Row(1) != (MoveRow{2, "Nf3", ""}) ||
		v.MovePly(0, true) != 1 || v.MovePly(1, false) != 2 {
		t.Errorf("a game from Black's move: rows %+v %+v, plies %d %d, want 1 2", v.Moves.Row(0), v.Moves.Row(1), v.MovePly(0, true), v.MovePly(1, false))
	}
}

// TestReplayOrientation: the replay shows a player of the game their own
// side at the bottom, anyone else White; the bars show the clocks and the
// material at the ply shown.
func TestReplayOrientation(t *testing.T) {
	snap := play.Snapshot{ID: 7, Kind: play.Private, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2),
		Control: clock.Control{Initial: 3 * time.Minute, Increment: 2 * time.Second}, Status: game.Finished,
		Outcome: game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}}
	playUCI(t, &snap, "e2e4", "d7d5", "e4d5", "d8d5")
	for i := range snap.Moves {
		snap.Moves[i].Clock = time.Duration(170-i) * time.Second
	}
	names := map[int64]string{1: "ayse", 2: "bora"}
	for _, tc := range []struct {
		viewer int64
		bottom chess.Color
	}{{1, chess.White}, {2, chess.Black}, {3, chess.White}, {0, chess.White}} {
		v := NewReplayView(snap, 3, GameViewInput{Viewer: tc.viewer, Names: names, Letters: chess.English})
		if v.Board.Orientation != tc.bottom || v.Game.Bottom.Side != tc.bottom || v.Game.Top.Side != tc.bottom.Other() {
			t.Errorf("viewer %d: board %s, bars %s over %s, want %s at the bottom", tc.viewer, v.Board.Orientation, v.Game.Top.Side, v.Game.Bottom.Side, tc.bottom)
		}
		if v.Game.Player || v.Game.Rematchable {
			t.Errorf("viewer %d: the replay offers a player's actions", tc.viewer)
		}
		if v.White().Name != "ayse" || v.Black().Name != "bora" {
			t.Errorf("viewer %d: White %q, Black %q", tc.viewer, v.White().Name, v.Black().Name)
		}
		if w := v.White(); w.Material.Lead != 1 || w.Clock.Remaining != 168*time.Second {
			t.Errorf("viewer %d at ply 3: White's lead %d, clock %v, want 1 and 2m48s", tc.viewer, w.Material.Lead, w.Clock.Remaining)
		}
		if b := v.Black(); b.Clock.Remaining != 169*time.Second {
			t.Errorf("viewer %d at ply 3: Black's clock %v, want 2m49s", tc.viewer, b.Clock.Remaining)
		}
	}
	if v := NewReplayView(snap, 0, GameViewInput{}); v.White().Clock.Remaining != 3*time.Minute {
		t.Errorf("at the start White's clock is %v, want 3m", v.White().Clock.Remaining)
	}
}
