package views

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// viewAfter returns viewer's view of a timed game after the moves ucis.
func viewAfter(t *testing.T, viewer int64, ucis ...string) GameView {
	t.Helper()
	snap := play.Snapshot{
		ID: 1, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2), Status: game.Active,
		Control: clock.Control{Initial: 5 * time.Minute},
	}
	playUCI(t, &snap, ucis...)
	snap.Clocks = game.Clocks{Timed: true, White: time.Minute, Black: time.Minute, Running: true, Side: snap.Position.SideToMove()}
	return NewGameView(snap, GameViewInput{Viewer: viewer, Letters: chess.English, Now: time.Now()})
}

// TestPanelDeltaSquares: a move's delta carries exactly the squares whose
// piece changed: two for a move, three for en passant, four for
// castling, two for a promotion; and the materials that changed.
func TestPanelDeltaSquares(t *testing.T) {
	line := strings.Fields("e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 f6g7 b8c6 g7h8q c8d7 g1f3 d8e7 f1e2 e8c8 e1g1")
	want := map[int][]string{ // ply: the squares changed
		4: {"f5", "f7"}, 5: {"e5", "f5", "f6"}, 7: {"f6", "g7"}, 9: {"g7", "h8"},
		14: {"a8", "c8", "d8", "e8"}, 15: {"e1", "f1", "g1", "h1"},
	}
	for _, viewer := range []int64{0, 1, 2} {
		for ply := 4; ply <= len(line); ply++ {
			prev, next := viewAfter(t, viewer, line[:ply-1]...), viewAfter(t, viewer, line[:ply]...)
			d, ok := NewPanelDelta(prev.Mark(), next)
			if !ok {
				t.Errorf("viewer %d, ply %d: no delta", viewer, ply)
				continue
			}
			var got []string
			for _, sq := range d.Squares {
				got = append(got, sq.Name)
			}
			slices.Sort(got)
			if w, ok := want[ply]; ok && !slices.Equal(got, w) {
				t.Errorf("viewer %d, ply %d (%s): squares %v, want %v", viewer, ply, line[ply-1], got, w)
			}
			captured := ply == 5 || ply == 7 || ply == 9
			if d.Material != [2]bool{captured, captured} && d.Material != [2]bool{captured, false} && d.Material != [2]bool{false, captured} {
				t.Errorf("viewer %d, ply %d: materials changed %v", viewer, ply, d.Material)
			}
			if !captured && d.Material != [2]bool{} {
				t.Errorf("viewer %d, ply %d: materials changed %v without a capture", viewer, ply, d.Material)
			}
			if d.NewRow != (ply%2 == 1) {
				t.Errorf("viewer %d, ply %d: new row %v", viewer, ply, d.NewRow)
			}
		}
	}
}

// TestPanelDeltaRefused: anything more than one move of a game in play is
// a whole panel: two moves at once, the game's end, the first move (the
// list appears), a player's name, the first-move countdown.
func TestPanelDeltaRefused(t *testing.T) {
	base := viewAfter(t, 0, "e2e4", "e7e5", "g1f3")
	two := viewAfter(t, 0, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4")
	if _, ok := NewPanelDelta(base.Mark(), two); ok {
		t.Error("two moves in one delta")
	}
	over := viewAfter(t, 0, "e2e4", "e7e5", "g1f3", "b8c6")
	over.Status = game.Finished
	if _, ok := NewPanelDelta(base.Mark(), over); ok {
		t.Error("the game's end as a delta")
	}
	if _, ok := NewPanelDelta(viewAfter(t, 0).Mark(), viewAfter(t, 0, "e2e4")); ok {
		t.Error("the first move as a delta")
	}
	renamed := viewAfter(t, 0, "e2e4", "e7e5", "g1f3", "b8c6")
	renamed.Top.Name = "someone else"
	if _, ok := NewPanelDelta(base.Mark(), renamed); ok {
		t.Error("a new name as a delta")
	}
	waiting := viewAfter(t, 0, "e2e4", "e7e5", "g1f3", "b8c6")
	waiting.FirstMove.Pending = true
	if _, ok := NewPanelDelta(base.Mark(), waiting); ok {
		t.Error("the first-move countdown as a delta")
	}
}

// TestMoveDeltaMarkup: the delta renders the state board.js applies, the
// legal moves grouped by square with promotions in capitals, and the
// out-of-band parts aimed at the live board.
func TestMoveDeltaMarkup(t *testing.T) {
	prev := viewAfter(t, 1, "a2a4", "h7h5", "a4a5", "h5h4", "a5a6", "h4h3", "a6b7", "h3g2")
	next := viewAfter(t, 1, "a2a4", "h7h5", "a4a5", "h5h4", "a5a6", "h4h3", "a6b7", "h3g2", "h2h3")
	d, ok := NewPanelDelta(prev.Mark(), next)
	if !ok {
		t.Fatal("no delta")
	}
	var buf bytes.Buffer
	if err := MoveDelta(&d).Render(ctxIn("en"), &buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{
		`data-ply="9"`, `data-last="h2 h3"`, `data-interactive="false"`,
		`hx-swap-oob="innerHTML:#game-board [data-square=h3]"`, `hx-swap-oob="innerHTML:#game-board [data-square=h2]"`,
		`hx-swap-oob="beforeend:.move-list"`, `>h3</span>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("delta without %s:\n%s", want, html)
		}
	}
	// Black to move with b7xa8 and g2xh1 promotions on the board: the
	// dests group each square's moves, promotions in capitals.
	black := viewAfter(t, 2, "a2a4", "h7h5", "a4a5", "h5h4", "a5a6", "h4h3", "a6b7", "h3g2", "h2h3")
	d, _ = NewPanelDelta(viewAfter(t, 2, "a2a4", "h7h5", "a4a5", "h5h4", "a5a6", "h4h3", "a6b7", "h3g2").Mark(), black)
	if got := d.Dests(); !strings.Contains(got, "g2:f1Qf1Rf1Bf1Nh1Qh1Rh1Bh1N") && !strings.Contains(got, "g2:h1Qh1Rh1Bh1Nf1Qf1Rf1Bf1N") {
		t.Errorf("dests %q, want g2's promotions grouped", got)
	}
}
