package views

import (
	"satranc/engine/chess"
	"satranc/static"
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
}

// SquareView is one square of a BoardView.
type SquareView struct {
	Square chess.Square
	Name   string // "e4"
	Light  bool
	Piece  chess.Piece // chess.NoPiece for an empty square
	// FileLabel is the file letter drawn in the squares of the bottom row,
	// RankLabel the rank number drawn in the squares of the left column;
	// both are empty elsewhere.
	FileLabel, RankLabel string
	LastMove             bool // from or to square of the last move
	Check                bool // the king in check stands here
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
			if row == 7 {
				v.FileLabel = string(rune('a' + file))
			}
			if col == 0 {
				v.RankLabel = string(rune('1' + rank))
			}
			b.Rows[row][col] = v
		}
	}
	return b
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

// PieceImage returns the URL of the piece's image.
func (s SquareView) PieceImage() string {
	return static.URL("img/pieces/" + s.PieceCode() + ".svg")
}

// PieceAlt returns the image's alternative text, such as "white knight".
func (s SquareView) PieceAlt() string {
	if !s.HasPiece() {
		return ""
	}
	return s.Piece.Color().String() + " " + s.Piece.Type().String()
}
