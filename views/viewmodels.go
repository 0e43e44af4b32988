package views

import (
	"github.com/a-h/templ"

	"satranc/engine/chess"
)

// BoardView is what the Board component draws: the 64 squares in the order
// they appear on screen, for a given side at the bottom.
type BoardView struct {
	// Orientation is the side drawn at the bottom of the board.
	Orientation chess.Color
	// Rows are the board's rows from the top of the screen down, each from
	// left to right. With White at the bottom, Rows[0][0] is a8; with Black
	// at the bottom, Rows[0][0] is h1.
	Rows [8][8]SquareView
	// LastFrom and LastTo are the squares of the last move, or
	// chess.NoSquare.
	LastFrom, LastTo chess.Square
	// CheckSquare is the square of the king in check, or chess.NoSquare.
	CheckSquare chess.Square
	// Attrs are extra attributes of the board element, such as the
	// data-interactive, data-color and data-legal that static/js/board.js
	// reads on a board that takes moves.
	Attrs templ.Attributes
	// Picker, when set, renders the promotion picker for that side's pieces
	// inside the board (hidden until board.js opens it).
	Picker *chess.Color
}

// SquareView is one square of a BoardView.
type SquareView struct {
	Square   chess.Square
	Name     string // "e4"
	Light    bool
	Piece    chess.Piece // chess.NoPiece for an empty square
	LastMove bool        // from or to square of the last move
	Check    bool        // the king in check stands here
}

// NewBoardView builds the view of position p with the side bottom at the
// bottom of the screen. A king in check is marked.
func NewBoardView(p chess.Position, bottom chess.Color) BoardView {
	b := BoardView{
		Orientation: bottom,
		LastFrom:    chess.NoSquare,
		LastTo:      chess.NoSquare,
		CheckSquare: chess.NoSquare,
	}
	if p.InCheck() {
		b.CheckSquare = p.KingSquare(p.SideToMove())
	}
	for row := range 8 {
		for col := range 8 {
			file, rank := col, 7-row // White at the bottom
			if bottom == chess.Black {
				file, rank = 7-col, row
			}
			sq := chess.NewSquare(file, rank)
			v := SquareView{
				Square: sq,
				Name:   sq.String(),
				Light:  sq.IsLight(),
				Piece:  p.PieceAt(sq),
				Check:  sq == b.CheckSquare,
			}
			b.Rows[row][col] = v
		}
	}
	return b
}

// FileLabels are the files along the bottom of the board, from left to
// right ("abcdefgh" with White at the bottom).
func (b BoardView) FileLabels() []string { return b.labels(b.Rows[7][:], chess.Square.File, 'a') }

// RankLabels are the ranks along the left of the board, from the top
// down ("87654321" with White at the bottom).
func (b BoardView) RankLabels() []string {
	var left [8]SquareView
	for row := range b.Rows {
		left[row] = b.Rows[row][0]
	}
	return b.labels(left[:], chess.Square.Rank, '1')
}

// labels names squares by their file or rank (of), counted from first.
func (BoardView) labels(squares []SquareView, of func(chess.Square) int, first rune) []string {
	out := make([]string, len(squares))
	for i, sq := range squares {
		out[i] = string(first + rune(of(sq.Square)))
	}
	return out
}

// WithLastMove returns a copy of b with the squares of move m highlighted.
// chess.NullMove highlights nothing.
func (b BoardView) WithLastMove(m chess.Move) BoardView {
	b.LastFrom, b.LastTo = chess.NoSquare, chess.NoSquare
	if m != chess.NullMove {
		b.LastFrom, b.LastTo = m.From(), m.To()
	}
	for row := range b.Rows {
		for col := range b.Rows[row] {
			sq := &b.Rows[row][col]
			sq.LastMove = sq.Square == b.LastFrom || sq.Square == b.LastTo
		}
	}
	return b
}

// Class returns the square's CSS classes.
func (s SquareView) Class() string {
	c := "sq sq-dark"
	if s.Light {
		c = "sq sq-light"
	}
	if s.LastMove {
		c += " sq-last"
	}
	if s.Check {
		c += " sq-check"
	}
	return c
}

// ClassAttr is Class as an attribute to spread on the square's element
// ({ sq.ClassAttr()... }), made once for each of the eight a square can
// have. templ's class={ } makes a set of the classes of each element it
// is on: for a board's 64 squares that was a third of a whole panel's
// garbage.
func (s SquareView) ClassAttr() templ.OrderedAttributes {
	i := 0
	if s.Light {
		i |= 1
	}
	if s.LastMove {
		i |= 2
	}
	if s.Check {
		i |= 4
	}
	return squareClassAttrs[i]
}

var squareClassAttrs = func() (attrs [8]templ.OrderedAttributes) {
	for i := range attrs {
		sq := SquareView{Light: i&1 != 0, LastMove: i&2 != 0, Check: i&4 != 0}
		attrs[i] = templ.OrderedAttributes{{Key: "class", Value: sq.Class()}}
	}
	return attrs
}()

// moveClassAttrs is the class attribute of a move in the list, by
// whether it is the latest.
var moveClassAttrs = map[bool]templ.OrderedAttributes{
	false: {{Key: "class", Value: "move"}},
	true:  {{Key: "class", Value: "move move-last"}},
}

// HasPiece reports whether a piece stands on the square.
func (s SquareView) HasPiece() bool { return s.Piece != chess.NoPiece }

// PieceCode returns the piece's file name stem, such as "wK" or "bN", or ""
// for an empty square.
func (s SquareView) PieceCode() string {
	if !s.HasPiece() {
		return ""
	}
	side := "w"
	if s.Piece.Color() == chess.Black {
		side = "b"
	}
	letter := s.Piece.FENLetter() &^ 0x20 // upper case
	return side + string(rune(letter))
}

// PieceImage returns the URL of the piece's image in the piece set (a
// cosmetics.PieceSet item ID).
func (s SquareView) PieceImage(set string) string {
	return PieceURL(set, s.PieceCode())
}

// PieceAltID returns the message ID of the image's alternative text, such
// as "piece.white.knight".
func (s SquareView) PieceAltID() string {
	if !s.HasPiece() {
		return ""
	}
	return pieceAltID(s.Piece)
}

func pieceAltID(p chess.Piece) string {
	return "piece." + p.Color().String() + "." + p.Type().String()
}

// PromotionChoice is one piece of the promotion picker.
type PromotionChoice struct {
	Letter string // UCI promotion letter: q, r, b or n
	Image  string // URL of the piece's image
	AltID  string // message ID of its name
}

// PromotionChoices returns the picker's pieces for side c, the Queen first,
// drawn from the piece set.
func PromotionChoices(c chess.Color, set string) []PromotionChoice {
	out := make([]PromotionChoice, 0, 4)
	for _, t := range []chess.PieceType{chess.Queen, chess.Rook, chess.Bishop, chess.Knight} {
		pc := chess.NewPiece(c, t)
		code := SquareView{Piece: pc}.PieceCode()
		out = append(out, PromotionChoice{
			Letter: string(pc.FENLetter() | 0x20),
			Image:  PieceURL(set, code),
			AltID:  pieceAltID(pc),
		})
	}
	return out
}
