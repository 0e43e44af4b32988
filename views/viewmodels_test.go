package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/chess"
)

func mustParseFEN(t *testing.T, fen string) chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q) = %v", fen, err)
	}
	return p
}

func TestNewBoardViewOrientation(t *testing.T) {
	p := mustParseFEN(t, chess.StartFEN)
	tests := []struct {
		bottom                         chess.Color
		topLeft, bottomLeft, bottomRgt string
		files, ranks                   string
	}{
		{chess.White, "a8", "a1", "h1", "abcdefgh", "87654321"},
		{chess.Black, "h1", "h8", "a8", "hgfedcba", "12345678"},
	}
	for _, tc := range tests {
		t.Run(tc.bottom.String(), func(t *testing.T) {
			b := NewBoardView(p, tc.bottom)
			if b.Orientation != tc.bottom {
				t.Errorf("Orientation = %v, want %v", b.Orientation, tc.bottom)
			}
			if got := b.Rows[0][0].Name; got != tc.topLeft {
				t.Errorf("top left = %s, want %s", got, tc.topLeft)
			}
			if got := b.Rows[7][0].Name; got != tc.bottomLeft {
				t.Errorf("bottom left = %s, want %s", got, tc.bottomLeft)
			}
			if got := b.Rows[7][7].Name; got != tc.bottomRgt {
				t.Errorf("bottom right = %s, want %s", got, tc.bottomRgt)
			}
			files, ranks := strings.Join(b.FileLabels(), ""), strings.Join(b.RankLabels(), "")
			for row := range 8 {
				for col := range 8 {
					sq := b.Rows[row][col]
					if sq.Light != ((sq.Square.File()+sq.Square.Rank())%2 == 1) {
						t.Errorf("%s: Light = %v", sq.Name, sq.Light)
					}
				}
			}
			if files != tc.files || ranks != tc.ranks {
				t.Errorf("labels: files %q ranks %q, want %q %q", files, ranks, tc.files, tc.ranks)
			}
		})
	}
}

func TestNewBoardViewLightSquares(t *testing.T) {
	b := NewBoardView(mustParseFEN(t, chess.StartFEN), chess.White)
	light := map[string]bool{}
	for _, row := range b.Rows {
		for _, sq := range row {
			light[sq.Name] = sq.Light
		}
	}
	// h1 and a8 are light, a1 and h8 dark (FIDE Laws 2.1).
	for name, want := range map[string]bool{"h1": true, "a8": true, "a1": false, "h8": false, "e4": true, "d4": false} {
		if light[name] != want {
			t.Errorf("%s light = %v, want %v", name, light[name], want)
		}
	}
}

func TestNewBoardViewCheckAndLastMove(t *testing.T) {
	// After 1.f3 e5 2.g4 Qh4#: White's king on e1 is in check.
	p := mustParseFEN(t, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
	b := NewBoardView(p, chess.White).WithLastMove(chess.NewMove(chess.D8, chess.H4))
	if b.CheckSquare != chess.E1 {
		t.Errorf("CheckSquare = %v, want e1", b.CheckSquare)
	}
	for _, row := range b.Rows {
		for _, sq := range row {
			wantLast := sq.Name == "d8" || sq.Name == "h4"
			if sq.LastMove != wantLast {
				t.Errorf("%s: LastMove = %v, want %v", sq.Name, sq.LastMove, wantLast)
			}
			if sq.Check != (sq.Name == "e1") {
				t.Errorf("%s: Check = %v", sq.Name, sq.Check)
			}
		}
	}
	if c := b.Rows[7][4].Class(); c != "sq sq-dark sq-check" {
		t.Errorf("e1 class = %q", c)
	}
	if c := b.Rows[4][7].Class(); c != "sq sq-dark sq-last" { // h4
		t.Errorf("h4 class = %q", c)
	}
	cleared := b.WithLastMove(chess.NullMove)
	if cleared.LastFrom != chess.NoSquare || cleared.Rows[4][7].LastMove {
		t.Errorf("WithLastMove(NullMove) kept a highlight")
	}
	if !b.Rows[4][7].LastMove {
		t.Errorf("WithLastMove changed its receiver")
	}

	quiet := NewBoardView(mustParseFEN(t, chess.StartFEN), chess.White)
	if quiet.CheckSquare != chess.NoSquare || quiet.LastFrom != chess.NoSquare {
		t.Errorf("start position: CheckSquare %v LastFrom %v, want none", quiet.CheckSquare, quiet.LastFrom)
	}
}

func TestSquareViewPiece(t *testing.T) {
	tests := []struct {
		piece     chess.Piece
		code, alt string
	}{
		{chess.WhiteKing, "wK", "piece.white.king"},
		{chess.BlackKnight, "bN", "piece.black.knight"},
		{chess.BlackPawn, "bP", "piece.black.pawn"},
		{chess.WhiteQueen, "wQ", "piece.white.queen"},
		{chess.NoPiece, "", ""},
	}
	for _, tc := range tests {
		sq := SquareView{Piece: tc.piece}
		if sq.PieceCode() != tc.code || sq.PieceAltID() != tc.alt {
			t.Errorf("piece %v: code %q alt %q, want %q %q", tc.piece, sq.PieceCode(), sq.PieceAltID(), tc.code, tc.alt)
		}
		if tc.code != "" && !strings.HasPrefix(sq.PieceImage("pieces_standard"), "/static/img/pieces/"+tc.code+".svg?v=") {
			t.Errorf("piece %v: image %q", tc.piece, sq.PieceImage("pieces_standard"))
		}
		if tc.code != "" && !strings.HasPrefix(sq.PieceImage("pieces_flat"), "/static/img/pieces/flat/"+tc.code+".svg?v=") {
			t.Errorf("piece %v: flat image %q", tc.piece, sq.PieceImage("pieces_flat"))
		}
		if tc.code != "" && !strings.HasPrefix(sq.PieceImage("pieces_sultan"), "/static/img/pieces/sultan/"+tc.code+".svg?v=") {
			t.Errorf("piece %v: sultan image %q", tc.piece, sq.PieceImage("pieces_sultan"))
		}
	}
}

func TestBoardRendersBlackAtBottom(t *testing.T) {
	b := NewBoardView(mustParseFEN(t, chess.StartFEN), chess.Black)
	var buf bytes.Buffer
	if err := Board(b).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	board := doc.Find(`[data-testid="board"]`)
	if o, _ := board.Attr("data-orientation"); o != "black" {
		t.Errorf("data-orientation = %q, want black", o)
	}
	squares := board.Find(`[data-testid="square"]`)
	if squares.Length() != 64 {
		t.Fatalf("%d squares, want 64", squares.Length())
	}
	first, _ := squares.First().Attr("data-square")
	last, _ := squares.Last().Attr("data-square")
	if first != "h1" || last != "a8" {
		t.Errorf("squares run %s..%s, want h1..a8", first, last)
	}
	// The coordinates are two strips over the board, apart from the
	// squares: files left to right along the bottom, ranks top down.
	if n := squares.Find(".coord").Length(); n != 0 {
		t.Errorf("%d coordinates inside squares, want none", n)
	}
	if got := board.Find(".coords-files .coord-file").Text(); got != "hgfedcba" {
		t.Errorf("file labels = %q, want hgfedcba", got)
	}
	if got := board.Find(".coords-ranks .coord-rank").Text(); got != "12345678" {
		t.Errorf("rank labels = %q, want 12345678", got)
	}
	if board.Find(".coords[aria-hidden=true]").Length() != 2 {
		t.Error("the coordinates' strips are not hidden from screen readers")
	}
}
