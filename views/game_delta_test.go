package views

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/cosmetics"
	"satranc/engine/game"
	"satranc/engine/opening"
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
// a whole panel: two moves at once, the game's end with two moves, the first move of a
// game that starts with Black (its row begins with White's "…"), a
// player's name, a first-move countdown that begins.
func TestPanelDeltaRefused(t *testing.T) {
	base := viewAfter(t, 0, "e2e4", "e7e5", "g1f3")
	two := viewAfter(t, 0, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4")
	if _, ok := NewPanelDelta(base.Mark(), two); ok {
		t.Error("two moves in one delta")
	}
	over := viewAfter(t, 0, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4")
	over.Status = game.Finished
	if _, ok := NewPanelDelta(base.Mark(), over); ok {
		t.Error("the game's end two moves later as a delta")
	}
	blackFirst := func(ucis ...string) GameView {
		start, err := chess.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		snap := play.Snapshot{ID: 1, Start: start, White: game.Human(1), Black: game.Human(2), Status: game.Active}
		playUCI(t, &snap, ucis...)
		return NewGameView(snap, GameViewInput{Letters: chess.English, Now: time.Now()})
	}
	if _, ok := NewPanelDelta(blackFirst().Mark(), blackFirst("e7e5")); ok {
		t.Error("the first move of a game that starts with Black as a delta")
	}
	if _, ok := NewPanelDelta(blackFirst("e7e5").Mark(), blackFirst("e7e5", "g1f3")); !ok {
		t.Error("White's first move after Black's opened the list: no delta")
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

// viewFirstMoves returns viewer's view of a timed game after the moves
// ucis, with the first-move countdown while fewer than two are made.
func viewFirstMoves(t *testing.T, viewer int64, ucis ...string) GameView {
	t.Helper()
	now := time.Now()
	snap := play.Snapshot{
		ID: 1, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2), Status: game.Active,
		Control: clock.Control{Initial: 5 * time.Minute},
	}
	playUCI(t, &snap, ucis...)
	snap.Clocks = game.Clocks{Timed: true, White: 5 * time.Minute, Black: 5 * time.Minute, Side: snap.Position.SideToMove()}
	if len(ucis) < 2 {
		snap.FirstMoveBy = now.Add(20 * time.Second)
	} else {
		snap.Clocks.Running = true
	}
	return NewGameView(snap, GameViewInput{Viewer: viewer, Letters: chess.English, Now: now})
}

// TestPanelDeltaFirstMoves: a game's first two moves are deltas too. The
// first opens the move list with row 1 and draws the first-move countdown
// anew, out of band, for Black; the second takes the countdown away and
// starts White's clock.
func TestPanelDeltaFirstMoves(t *testing.T) {
	for _, viewer := range []int64{0, 1, 2} {
		d, ok := NewPanelDelta(viewFirstMoves(t, viewer).Mark(), viewFirstMoves(t, viewer, "e2e4"))
		if !ok {
			t.Fatalf("viewer %d: the first move is no delta", viewer)
		}
		html := renderDelta(t, ctxIn("en"), &d)
		for _, want := range []string{`data-san="e4"`, `data-row="1"`, `id="first-move"`, `hx-swap-oob="true"`, `data-side="black"`, `data-remaining-ms="`} {
			if !strings.Contains(html, want) {
				t.Errorf("viewer %d: first move's delta without %s:\n%s", viewer, want, html)
			}
		}
		d, ok = NewPanelDelta(viewFirstMoves(t, viewer, "e2e4").Mark(), viewFirstMoves(t, viewer, "e2e4", "e7e5"))
		if !ok {
			t.Fatalf("viewer %d: the second move is no delta", viewer)
		}
		html = renderDelta(t, ctxIn("tr"), &d)
		for _, want := range []string{`data-san="e5"`, `hx-swap-oob="delete:#first-move"`, `data-white="300000 1"`} {
			if !strings.Contains(html, want) {
				t.Errorf("viewer %d: second move's delta without %s:\n%s", viewer, want, html)
			}
		}
		if strings.Contains(html, "data-row") || strings.Contains(html, `class="game-alert first-move"`) {
			t.Errorf("viewer %d: second move's delta:\n%s", viewer, html)
		}
		d, _ = NewPanelDelta(viewFirstMoves(t, viewer, "e2e4", "e7e5").Mark(), viewFirstMoves(t, viewer, "e2e4", "e7e5", "g1f3"))
		if html := renderDelta(t, ctxIn("en"), &d); strings.Contains(html, "first-move") {
			t.Errorf("viewer %d: third move's delta names the countdown:\n%s", viewer, html)
		}
	}
}

// TestMoveDeltaMarkup: the delta renders the state board.js applies, the
// legal moves grouped by square with promotions in capitals, the squares,
// the move and the status line as attributes, and nothing out of band
// when neither the opening nor the buttons changed.
func TestMoveDeltaMarkup(t *testing.T) {
	prev := viewAfter(t, 1, "a2a4", "h7h5", "a4a5", "h5h4", "a5a6", "h4h3", "a6b7", "h3g2")
	next := viewAfter(t, 1, "a2a4", "h7h5", "a4a5", "h5h4", "a5a6", "h4h3", "a6b7", "h3g2", "h2h3")
	d, ok := NewPanelDelta(prev.Mark(), next)
	if !ok {
		t.Fatal("no delta")
	}
	html := renderDelta(t, ctxIn("en"), &d)
	for _, want := range []string{
		`data-ply="9"`, `data-last="h2 h3"`, `data-interactive="false"`, `data-board="h3:wP h2:"`,
		`data-san="h3"`, `data-row="5"`, `data-status-text="Your opponent is thinking."`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("delta without %s:\n%s", want, html)
		}
	}
	for _, unwanted := range []string{"hx-swap-oob", "data-material-", "<img"} {
		if strings.Contains(html, unwanted) {
			t.Errorf("delta with %s:\n%s", unwanted, html)
		}
	}
	// Black's answer ends the row: no row number; the status line in
	// the viewer's language.
	after := viewAfter(t, 1, "a2a4", "h7h5", "a4a5", "h5h4", "a5a6", "h4h3", "a6b7", "h3g2", "h2h3", "g2h1q")
	d, _ = NewPanelDelta(next.Mark(), after)
	if html := renderDelta(t, ctxIn("tr"), &d); strings.Contains(html, "data-row") || !strings.Contains(html, `data-san="gxh1=Q"`) || !strings.Contains(html, `data-status-text="Hamle sırası sizde."`) {
		t.Errorf("Black's move in Turkish:\n%s", html)
	}
	// Black to move with b7xa8 and g2xh1 promotions on the board: the
	// dests group each square's moves, promotions in capitals.
	black := viewAfter(t, 2, "a2a4", "h7h5", "a4a5", "h5h4", "a5a6", "h4h3", "a6b7", "h3g2", "h2h3")
	d, _ = NewPanelDelta(viewAfter(t, 2, "a2a4", "h7h5", "a4a5", "h5h4", "a5a6", "h4h3", "a6b7", "h3g2").Mark(), black)
	if got := d.Dests(); !strings.Contains(got, "g2:f1Qf1Rf1Bf1Nh1Qh1Rh1Bh1N") && !strings.Contains(got, "g2:h1Qh1Rh1Bh1Nf1Qf1Rf1Bf1N") {
		t.Errorf("dests %q, want g2's promotions grouped", got)
	}
}

// renderDelta renders d in ctx.
func renderDelta(t *testing.T, ctx context.Context, d *PanelDelta) string {
	t.Helper()
	var buf bytes.Buffer
	if err := MoveDelta(d).Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestPanelDeltaBoardText: the squares a delta names, each with its piece
// now or nothing, in the board's screen order for either side: en
// passant, a promotion, castling on both sides.
func TestPanelDeltaBoardText(t *testing.T) {
	line := strings.Fields("e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 f6g7 b8c6 g7h8q c8d7 g1f3 d8e7 f1e2 e8c8 e1g1")
	tests := []struct {
		viewer int64
		ply    int
		want   string
	}{
		{1, 4, "f7: f5:bP"},            // a pawn's two steps
		{2, 4, "f5:bP f7:"},            // Black's board is turned
		{1, 5, "f6:wP e5: f5:"},        // exf6 e.p.
		{2, 5, "f5: e5: f6:wP"},        //
		{0, 9, "h8:wQ g7:"},            // gxh8=Q
		{2, 9, "g7: h8:wQ"},            //
		{0, 14, "a8: c8:bK d8:bR e8:"}, // O-O-O
		{2, 14, "e8: d8:bR c8:bK a8:"}, //
		{1, 15, "e1: f1:wR g1:wK h1:"}, // O-O
		{2, 15, "h1: g1:wK f1:wR e1:"}, //
	}
	for _, tt := range tests {
		prev, next := viewAfter(t, tt.viewer, line[:tt.ply-1]...), viewAfter(t, tt.viewer, line[:tt.ply]...)
		d, ok := NewPanelDelta(prev.Mark(), next)
		if !ok {
			t.Errorf("viewer %d, ply %d: no delta", tt.viewer, tt.ply)
			continue
		}
		if got := d.BoardText(); got != tt.want {
			t.Errorf("viewer %d, ply %d (%s): board %q, want %q", tt.viewer, tt.ply, line[tt.ply-1], got, tt.want)
		}
	}
}

// TestPanelDeltaMaterial: a capture sends the materials that changed as
// text, both sides' when the side behind takes (its pieces taken and the
// other's lead), one side's when the side ahead does; nothing without a
// capture.
func TestPanelDeltaMaterial(t *testing.T) {
	line := strings.Fields("e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 f6g7 b8c6 g7h8q c8d7 g1f3 d8e7 f1e2 e8c8 e1g1 g8f6 h8f8 d8f8")
	tests := []struct {
		ply          int
		white, black string // "-" for unchanged
	}{
		{5, "bP1 +1", "-"},            // exf6 e.p.: White ahead by a pawn
		{6, "-", "-"},                 // no capture
		{7, "bP2 +2", "-"},            // fxg7
		{9, "bP2 bR1 +15", "-"},       // gxh8=Q: a rook, and a pawn become a queen
		{17, "bP2 bB1 bR1 +18", "-"},  // Qxf8
		{18, "bP2 bB1 bR1 +9", "wP1"}, // Rxf8: Black takes the queen, a pawn promoted
	}
	for _, viewer := range []int64{0, 1, 2} {
		for _, tt := range tests {
			prev, next := viewAfter(t, viewer, line[:tt.ply-1]...), viewAfter(t, viewer, line[:tt.ply]...)
			d, ok := NewPanelDelta(prev.Mark(), next)
			if !ok {
				t.Fatalf("viewer %d, ply %d: no delta", viewer, tt.ply)
			}
			for side, want := range map[chess.Color]string{chess.White: tt.white, chess.Black: tt.black} {
				got, changed := d.MaterialText(side)
				if !changed {
					got = "-"
				}
				if got != want {
					t.Errorf("viewer %d, ply %d (%s): %s material %q, want %q", viewer, tt.ply, line[tt.ply-1], side, got, want)
				}
			}
			html := renderDelta(t, ctxIn("en"), &d)
			if strings.Contains(html, "data-material-black") != (tt.black != "-") || strings.Contains(html, "data-material-white") != (tt.white != "-") {
				t.Errorf("viewer %d, ply %d: delta %s", viewer, tt.ply, html)
			}
		}
	}
}

// TestPanelDeltaActions: when a move changes a player's buttons, the
// delta swaps only the part that changed, aimed within the buttons: the
// resign confirmation when the abort rule ends, the draw part when an
// offer lapses (drawn anew, put in where there was none, or taken away),
// the leave confirmation. A spectator gets none.
func TestPanelDeltaActions(t *testing.T) {
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
	base := func(viewer int64, n int) GameView {
		v := viewAfter(t, viewer, line[:n]...)
		v.CanLeave = viewer != 0
		return v
	}
	tests := []struct {
		name         string
		before, next func(*GameView)
		want, absent []string
	}{
		{
			name:   "abort rule ends", // the texts only: TestPanelDeltaResignTexts
			before: func(v *GameView) { v.Abortable = true },
			absent: []string{"draw", "leave", "resign", "Abort", "<details"},
		},
		{
			name:   "own offer lapses",
			before: func(v *GameView) { v.DrawOffered, v.DrawOfferByMe, v.CanOfferDraw = true, true, false },
			want:   []string{`hx-swap-oob="outerHTML:[data-testid=actions] &gt; [data-draw]"`, `data-testid="draw-offer"`, `hx-post="/games/1/draw"`},
			absent: []string{"resign", "leave", "draw-pending"},
		},
		{
			name:   "offer to me lapses",
			before: func(v *GameView) { v.DrawOffered, v.CanOfferDraw = true, false },
			want:   []string{`hx-swap-oob="outerHTML:[data-testid=actions] &gt; [data-draw]"`, `data-testid="draw-offer"`},
			absent: []string{"resign", "leave", "draw-accept"},
		},
		{
			name:   "draw offers begin",
			before: func(v *GameView) { v.CanOfferDraw = false },
			want:   []string{`<div hx-swap-oob="afterbegin:[data-testid=actions]"><form`, `data-testid="draw-offer"`},
			absent: []string{"resign", "leave"},
		},
		{
			name:   "draw offers end",
			next:   func(v *GameView) { v.CanOfferDraw = false },
			want:   []string{`<div hx-swap-oob="delete:[data-testid=actions] &gt; [data-draw]"></div>`},
			absent: []string{"resign", "leave", "<form"},
		},
		{
			name:   "leave comes",
			before: func(v *GameView) { v.CanLeave = false },
			want:   []string{`<div hx-swap-oob="beforeend:[data-testid=actions]"><details class="confirm" data-testid="leave">`, `action="/games/1/leave"`},
			absent: []string{"resign", "draw"},
		},
		{
			name:   "leave goes",
			next:   func(v *GameView) { v.CanLeave = false },
			want:   []string{`<div hx-swap-oob="delete:[data-testid=actions] &gt; [data-testid=leave]"></div>`},
			absent: []string{"resign", "draw", "<details"},
		},
	}
	for _, tt := range tests {
		for _, viewer := range []int64{0, 1, 2} {
			prev, next := base(viewer, 3), base(viewer, 4)
			if tt.before != nil {
				tt.before(&prev)
			}
			if tt.next != nil {
				tt.next(&next)
			}
			d, ok := NewPanelDelta(prev.Mark(), next)
			if !ok {
				t.Fatalf("%s, viewer %d: no delta", tt.name, viewer)
			}
			html := renderDelta(t, ctxIn("en"), &d)
			_, oob, _ := strings.Cut(html, "</div>") // what follows the board's state
			if viewer == 0 {
				if oob != "" {
					t.Errorf("%s: a spectator's delta swaps %s", tt.name, oob)
				}
				continue
			}
			for _, want := range tt.want {
				if !strings.Contains(oob, want) {
					t.Errorf("%s, viewer %d: swaps without %s:\n%s", tt.name, viewer, want, oob)
				}
			}
			for _, absent := range tt.absent {
				if strings.Contains(oob, absent) {
					t.Errorf("%s, viewer %d: swaps with %s:\n%s", tt.name, viewer, absent, oob)
				}
			}
		}
	}
}

// TestGameActionsParts: the buttons a whole panel draws are the parts a
// delta swaps, each findable by the selector the delta aims at it, with
// the testids the pages' tests use.
func TestGameActionsParts(t *testing.T) {
	v := viewAfter(t, 1, "e2e4", "e7e5")
	v.CanLeave = true
	for _, tt := range []struct {
		name string
		set  func(*GameView)
		want []string
	}{
		{"offer", func(v *GameView) { v.CanOfferDraw = true }, []string{`<form method="post" action="/games/1/draw" hx-post="/games/1/draw" hx-swap="none" class="inline-form" data-draw><button type="submit" data-testid="draw-offer">`}},
		{"pending", func(v *GameView) { v.DrawOffered, v.DrawOfferByMe, v.CanOfferDraw = true, true, false }, []string{`<p data-testid="draw-pending" data-draw>`}},
		{"offered", func(v *GameView) { v.DrawOffered, v.CanOfferDraw = true, false }, []string{`<div class="draw-offer" data-testid="draw-offered" data-draw>`, `data-testid="draw-accept"`, `data-testid="draw-decline"`}},
		{"abort", func(v *GameView) { v.Abortable = true }, []string{`data-testid="resign-open">Abort</summary>`}},
	} {
		w := v
		tt.set(&w)
		var buf bytes.Buffer
		if err := gameActions(&w).Render(ctxIn("en"), &buf); err != nil {
			t.Fatal(err)
		}
		html := buf.String()
		for _, want := range append(tt.want, `<details class="confirm" data-testid="resign">`, `<details class="confirm" data-testid="leave">`, `data-testid="leave-confirm"`, `data-testid="resign-confirm"`) {
			if !strings.Contains(html, want) {
				t.Errorf("%s: buttons without %s:\n%s", tt.name, want, html)
			}
		}
		if strings.Contains(html, "hx-swap-oob") {
			t.Errorf("%s: a whole panel's buttons with hx-swap-oob:\n%s", tt.name, html)
		}
	}
}

// TestDeltaTemplates: the game page of a game in play holds, once, an
// image of each of the twelve pieces as a square draws it, in the
// viewer's set and language, the words of a material's lead, and the
// result panel the game's end will show, with its names for the tests as
// data-tid (deltaTemplateResult); a finished game's page has none.
func TestDeltaTemplates(t *testing.T) {
	v := viewAfter(t, 1, "e2e4", "e7e5")
	var buf bytes.Buffer
	if err := GamePage(v, nil).Render(ctxIn("tr"), &buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	start := strings.Index(html, `<template id="game-pieces" data-pieces="`+LookOf(ctxIn("tr")).Pieces+`">`)
	end := strings.Index(html[max(start, 0):], "</template>")
	if start < 0 || end < 0 || strings.Count(html, `id="game-pieces"`) != 1 {
		t.Fatalf("page without one piece template:\n%s", html)
	}
	tmpl := html[start : start+end]
	for _, p := range allPieces {
		var sq bytes.Buffer
		if err := squareContent(SquareView{Piece: p}, LookOf(ctxIn("tr")).Pieces).Render(ctxIn("tr"), &sq); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(tmpl, sq.String()) || !strings.Contains(sq.String(), `alt="`+T(ctxIn("tr"), pieceAltID(p))+`"`) {
			t.Errorf("template without %s", sq.String())
		}
	}
	if want := `<span class="lead"><span class="visually-hidden">` + T(ctxIn("tr"), "game.material_lead") + `</span></span>`; !strings.Contains(tmpl, want) {
		t.Errorf("template without %s:\n%s", want, tmpl)
	}
	if strings.Contains(tmpl, "data-testid") || !strings.Contains(tmpl, `data-tid="result-panel"`) {
		t.Errorf("template without the result panel, or with data-testid:\n%s", tmpl)
	}
	v.Status = game.Finished
	buf.Reset()
	if err := GamePage(v, nil).Render(ctxIn("tr"), &buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "game-pieces") {
		t.Error("a finished game's page with the piece template")
	}
}

// TestPanelDeltaResignTexts: when the abort rule ends, a player's delta
// carries the resign confirmation's new texts, in the viewer's language,
// for board.js to put in place, and swaps nothing; a spectator's carries
// none, and neither does a move that leaves the rule as it was.
func TestPanelDeltaResignTexts(t *testing.T) {
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
	for _, tc := range []struct {
		lang, button, confirm, yes string
	}{
		{"en", "Resign", "Resign and lose this game?", "Yes, resign"},
		{"tr", T(ctxIn("tr"), "game.resign.button"), T(ctxIn("tr"), "game.resign.confirm"), T(ctxIn("tr"), "game.resign.yes")},
	} {
		for _, viewer := range []int64{0, 1, 2} {
			prev, next := viewAfter(t, viewer, line[:3]...), viewAfter(t, viewer, line...)
			prev.Abortable = true
			d, ok := NewPanelDelta(prev.Mark(), next)
			if !ok {
				t.Fatalf("viewer %d: no delta", viewer)
			}
			html := renderDelta(t, ctxIn(tc.lang), &d)
			head, oob, _ := strings.Cut(html, "</div>")
			want := []string{
				`data-resign-button="` + templ.EscapeString(tc.button) + `"`,
				`data-resign-confirm="` + templ.EscapeString(tc.confirm) + `"`,
				`data-resign-yes="` + templ.EscapeString(tc.yes) + `"`,
			}
			for _, w := range want {
				if got := strings.Contains(head, w); got != (viewer != 0) {
					t.Errorf("%s, viewer %d: delta has %s: %v, want %v:\n%s", tc.lang, viewer, w, got, viewer != 0, head)
				}
			}
			if oob != "" {
				t.Errorf("%s, viewer %d: the delta swaps %s", tc.lang, viewer, oob)
			}
			// The next move leaves the rule as it was: no texts.
			after := viewAfter(t, viewer, append(line, "f1c4")...)
			if d, ok := NewPanelDelta(next.Mark(), after); !ok {
				t.Fatalf("viewer %d: no delta for the next move", viewer)
			} else if html := renderDelta(t, ctxIn(tc.lang), &d); strings.Contains(html, "data-resign") {
				t.Errorf("%s, viewer %d: a move that keeps the abort rule's state carries the resign texts:\n%s", tc.lang, viewer, html)
			}
		}
	}
}

// TestPanelDeltaOpening: a move that changes the opening's name carries
// it, code and name in the viewer's language, for board.js to draw; a move
// that keeps it carries none; a name that goes away is a whole panel.
func TestPanelDeltaOpening(t *testing.T) {
	line := []string{"e2e4", "c7c5", "g1f3", "d7d6"}
	sicilian := opening.Opening{ECO: "B50", Name: "Sicilian Defense"}
	najdorfish := opening.Opening{ECO: "B50", Name: "Sicilian Defense: Modern Variations"}
	for _, lang := range []string{"en", "tr"} {
		ctx := ctxIn(lang)
		for _, viewer := range []int64{0, 1} {
			prev, next := viewAfter(t, viewer, line[:3]...), viewAfter(t, viewer, line...)
			prev.Opening, next.Opening = sicilian, najdorfish
			d, ok := NewPanelDelta(prev.Mark(), next)
			if !ok {
				t.Fatalf("%s, viewer %d: no delta", lang, viewer)
			}
			html := renderDelta(t, ctx, &d)
			want := `data-opening="` + templ.EscapeString("B50 "+OpeningName(ctx, najdorfish)) + `"`
			if !strings.Contains(html, want) {
				t.Errorf("%s, viewer %d: delta without %s:\n%s", lang, viewer, want, html)
			}
			if _, oob, _ := strings.Cut(html, "</div>"); oob != "" {
				t.Errorf("%s, viewer %d: the delta swaps %s", lang, viewer, oob)
			}
			prev.Opening = najdorfish
			if d, ok := NewPanelDelta(prev.Mark(), next); !ok {
				t.Fatalf("%s, viewer %d: no delta with the same opening", lang, viewer)
			} else if html := renderDelta(t, ctx, &d); strings.Contains(html, "data-opening") {
				t.Errorf("%s, viewer %d: a move that keeps the opening carries it:\n%s", lang, viewer, html)
			}
			next.Opening = opening.Opening{}
			if _, ok := NewPanelDelta(prev.Mark(), next); ok {
				t.Errorf("%s, viewer %d: a name that goes away is a delta", lang, viewer)
			}
		}
	}
	if tr := OpeningName(ctxIn("tr"), najdorfish); !strings.HasPrefix(tr, "Sicilya") {
		t.Errorf("Turkish name %q: the family is not translated", tr)
	}
}

// viewEnded returns viewer's view of a rated game after the moves ucis,
// ended with o when o is not zero, the players rated as ratings says.
func viewEnded(t *testing.T, viewer int64, o game.Outcome, ratings map[int64]int, ucis ...string) GameView {
	t.Helper()
	snap := play.Snapshot{
		ID: 1, Kind: play.Quick, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2), Status: game.Active,
		Control: clock.Control{Initial: 5 * time.Minute}, StartedAt: time.Unix(1e9, 0), DisconnectGrace: time.Minute,
	}
	playUCI(t, &snap, ucis...)
	snap.Clocks = game.Clocks{Timed: true, White: time.Minute, Black: 50 * time.Second, Running: true, Side: snap.Position.SideToMove()}
	if o != (game.Outcome{}) {
		snap.Status, snap.Outcome = game.Finished, o
		snap.Clocks.Running = false
	}
	return NewGameView(snap, GameViewInput{Viewer: viewer, Letters: chess.English, Now: time.Now(), Ratings: ratings})
}

// TestPanelDeltaGameEnds: the game's end is a delta, by its last move
// (a mate) or without one (a resignation): it says the status, stops the
// clocks, redraws the status line, puts up the result panel and the move
// list's end, takes a player's buttons and lost-connection notice away
// and carries the ratings the game settled; a spectator's has no
// buttons to take away. An end before any move is a whole panel.
func TestPanelDeltaGameEnds(t *testing.T) {
	fools := []string{"f2f3", "e7e5", "g2g4"}
	before, after := map[int64]int{1: 1500, 2: 1500}, map[int64]int{1: 1492, 2: 1508}
	mate := game.Outcome{Result: game.BlackWins, Reason: game.Checkmate, Side: chess.White}
	for _, viewer := range []int64{0, 1, 2} {
		prev := viewEnded(t, viewer, game.Outcome{}, before, fools...)
		d, ok := NewPanelDelta(prev.Mark(), viewEnded(t, viewer, mate, after, append(fools, "d8h4")...))
		if !ok {
			t.Fatalf("viewer %d: the mate is no delta", viewer)
		}
		if !d.Moved || !d.Ends || d.Rating != [2]bool{true, true} {
			t.Errorf("viewer %d: moved %v, ends %v, ratings %v", viewer, d.Moved, d.Ends, d.Rating)
		}
		html := renderDelta(t, ctxIn("en"), &d)
		player := viewer != 0
		title := map[int64]string{0: "Black wins", 1: "You lost", 2: "You won"}[viewer]
		for _, want := range []string{
			`data-status="finished"`, `data-san="Qh4#"`, `h4:bQ`, `d8:`, `data-white="60000 0"`, `data-black="50000 0"`,
			`data-rating-white="1492"`, `data-rating-black="1508"`,
			`data-status-text="Checkmate — Black wins"`, `data-end-reason="checkmate"`, `data-end-result="0-1"`, `data-score="0-1"`,
			`data-reason-text="Checkmate"`, `data-title="` + title + `"`,
		} {
			if !strings.Contains(html, want) {
				t.Errorf("viewer %d: the mate's delta without %s:\n%s", viewer, want, html)
			}
		}
		for _, unwanted := range []string{"data-interactive", "data-dests", "hx-swap-oob", "<section", "data-testid"} {
			if strings.Contains(html, unwanted) {
				t.Errorf("viewer %d: the mate's delta with %s:\n%s", viewer, unwanted, html)
			}
		}
		for _, playerOnly := range []string{"data-rematchable", `data-settled="false"`} {
			if got := strings.Contains(html, playerOnly); got != player {
				t.Errorf("viewer %d: the mate's delta has %s: %v", viewer, playerOnly, got)
			}
		}

		// White resigns at the same ply: no move, nothing on the board.
		resigned := game.Outcome{Result: game.BlackWins, Reason: game.Resignation, Side: chess.White}
		d, ok = NewPanelDelta(prev.Mark(), viewEnded(t, viewer, resigned, before, fools...))
		if !ok || d.Moved || !d.Ends || d.Squares != nil || d.Rating != [2]bool{} {
			t.Fatalf("viewer %d: the resignation: delta %v, moved %v, ends %v, squares %v, ratings %v", viewer, ok, d.Moved, d.Ends, d.Squares, d.Rating)
		}
		html = renderDelta(t, ctxIn("tr"), &d)
		for _, unwanted := range []string{"data-san", "data-row", "data-rating-"} {
			if strings.Contains(html, unwanted) {
				t.Errorf("viewer %d: the resignation's delta with %s:\n%s", viewer, unwanted, html)
			}
		}
		if !strings.Contains(html, `data-board=""`) || !strings.Contains(html, `data-end-reason="resignation"`) || !strings.Contains(html, `data-title="`) {
			t.Errorf("viewer %d: the resignation's delta:\n%s", viewer, html)
		}
	}
	// Aborted before the first move: the PGN link goes too, so the
	// whole panel.
	aborted := game.Outcome{Reason: game.Abort, Side: chess.White, Cause: game.Resignation}
	if _, ok := NewPanelDelta(viewEnded(t, 1, game.Outcome{}, before).Mark(), viewEnded(t, 1, aborted, before)); ok {
		t.Error("an end before the first move as a delta")
	}
	// A rating that appears is more than a delta carries.
	if _, ok := NewPanelDelta(viewEnded(t, 1, game.Outcome{}, nil, fools...).Mark(), viewEnded(t, 1, mate, after, append(fools, "d8h4")...)); ok {
		t.Error("a rating appearing as a delta")
	}
}

// TestDeltaTemplateResult: the result panel among a live game's templates
// is a player's panel at the end as resultPanel draws it, less the
// texts and figures the end's delta carries: the rematch and a new game
// like this one (a practice game: the same level, control and colour),
// the lobby and the PGN; a spectator's has the PGN only.
func TestDeltaTemplateResult(t *testing.T) {
	snap := play.Snapshot{
		ID: 7, Kind: play.Practice, Start: chess.StartPosition(), White: game.Human(1), Black: game.Bot(game.Level(3)),
		Status: game.Active, Control: clock.MustParse("10+5"), StartedAt: time.Unix(1e9, 0),
	}
	playUCI(t, &snap, "e2e4")
	for _, tc := range []struct {
		viewer int64
		want   []string
		not    []string
	}{
		{1, []string{`data-tid="rematch"`, `action="/games/practice"`, `name="level" value="` + game.Level(3).String() + `"`, `name="control" value="10+5"`, `name="color" value="white"`, `data-tid="result-lobby"`, `data-tid="result-pgn"`, `data-settled="false"`}, nil},
		{0, []string{`data-tid="result-pgn"`}, []string{"rematch", "result-new-game", "result-lobby", "result-figures\""}},
	} {
		var buf bytes.Buffer
		v := NewGameView(snap, GameViewInput{Viewer: tc.viewer, Letters: chess.English, Now: time.Now()})
		if err := asTemplate(resultAheadOf(&v)).Render(ctxIn("en"), &buf); err != nil {
			t.Fatal(err)
		}
		html := buf.String()
		for _, w := range tc.want {
			if !strings.Contains(html, w) {
				t.Errorf("viewer %d: the template's result panel without %s:\n%s", tc.viewer, w, html)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(html, n) {
				t.Errorf("viewer %d: the template's result panel with %s:\n%s", tc.viewer, n, html)
			}
		}
	}
}

// TestPanelDeltaEndFigures: a player's end carries the figures the game
// settled, in the viewer's language: the rating before and after, the
// chips won or lost with their text, the experience; a game whose
// settlement could not be read says the figures are pending.
func TestPanelDeltaEndFigures(t *testing.T) {
	fools := []string{"f2f3", "e7e5", "g2g4"}
	mate := game.Outcome{Result: game.BlackWins, Reason: game.Checkmate, Side: chess.White}
	view := func(o game.Outcome, st *play.Settlement, ucis ...string) GameView {
		snap := play.Snapshot{
			ID: 1, Kind: play.Lounge, Stake: 500, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2), Status: game.Active,
			Control: clock.Control{Initial: 5 * time.Minute}, StartedAt: time.Unix(1e9, 0),
		}
		playUCI(t, &snap, ucis...)
		if o != (game.Outcome{}) {
			snap.Status, snap.Outcome = game.Finished, o
		}
		return NewGameView(snap, GameViewInput{Viewer: 1, Letters: chess.Turkish, Now: time.Now(), Ratings: map[int64]int{1: 1500, 2: 1500}, Settlement: st})
	}
	lost := &play.Settlement{Settled: true, Rated: true, Rating: play.RatingChange{Before: 1500, After: 1492}, Staked: 500}
	d, ok := NewPanelDelta(view(game.Outcome{}, nil, fools...).Mark(), view(mate, lost, append(fools, "d8h4")...))
	if !ok {
		t.Fatal("the mate is no delta")
	}
	html := renderDelta(t, ctxIn("tr"), &d)
	for _, want := range []string{
		`data-settled="true"`, `data-figure-rating="1500 1492"`, `data-figure-chips="-500"`,
		`data-figure-chips-text="` + AmountText(ctxIn("tr"), "game.result_panel.chips_lost", 500) + `"`,
		`data-title="Kaybettiniz"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the end without %s:\n%s", want, html)
		}
	}
	if d.View.Result.XP > 0 && !strings.Contains(html, `data-figure-xp="`+strconv.Itoa(d.View.Result.XP)+`"`) {
		t.Errorf("the end without its %d XP:\n%s", d.View.Result.XP, html)
	}
	d, _ = NewPanelDelta(view(game.Outcome{}, nil, fools...).Mark(), view(mate, nil, append(fools, "d8h4")...))
	if html := renderDelta(t, ctxIn("tr"), &d); !strings.Contains(html, `data-settled="false"`) || strings.Contains(html, "data-figure") {
		t.Errorf("an unread settlement's end:\n%s", html)
	}
}

// TestPageKey: a view's key is the same for the same panel and differs
// with a move, a draw offer, a chat line, the language and the piece set;
// only a live game's stream URL carries it.
func TestPageKey(t *testing.T) {
	v := viewAfter(t, 1, "e2e4", "e7e5")
	en := v.PageKey(ctxIn("en"))
	if again := viewAfter(t, 1, "e2e4", "e7e5").PageKey(ctxIn("en")); again != en {
		t.Errorf("the same panel has keys %s and %s", en, again)
	}
	offered := v
	offered.DrawOffered = true
	chatted := v
	chatted.Chat = []ChatLine{{Name: "bora", Text: "iyi oyunlar"}}
	flat := WithUser(ctxIn("en"), account.User{ID: 1, Look: cosmetics.Look{Pieces: "pieces_flat"}})
	for what, key := range map[string]string{
		"a move":       viewAfter(t, 1, "e2e4", "e7e5", "g1f3").PageKey(ctxIn("en")),
		"a draw offer": offered.PageKey(ctxIn("en")),
		"a chat line":  chatted.PageKey(ctxIn("en")),
		"Turkish":      v.PageKey(ctxIn("tr")),
		"flat pieces":  v.PageKey(flat),
	} {
		if key == en {
			t.Errorf("%s leaves the key %s", what, en)
		}
	}
	if q := v.ShownQuery(ctxIn("en")); q != "&shown="+en {
		t.Errorf("a live game's ShownQuery = %q", q)
	}
	v.Status = game.Finished
	if q := v.ShownQuery(ctxIn("en")); q != "" {
		t.Errorf("a finished game's ShownQuery = %q, want none", q)
	}
}
