package chess

// Color is a side: White or Black.
type Color uint8

// The two sides.
const (
	White Color = iota
	Black
)

// Other returns the opposing side.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// PieceType is a kind of piece regardless of colour.
type PieceType uint8

// The piece types; NoPieceType is the zero value.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// String returns the English name of the piece type in lower case.
func (t PieceType) String() string {
	names := [...]string{"none", "pawn", "knight", "bishop", "rook", "queen", "king"}
	if int(t) >= len(names) {
		return "invalid"
	}
	return names[t]
}

// Piece is a coloured piece: the colour in bit 3, the type in bits 0-2.
// NoPiece (0) is an empty square.
type Piece uint8

// NoPiece is the content of an empty square.
const NoPiece Piece = 0

// The twelve pieces.
const (
	WhitePawn   = Piece(Pawn)
	WhiteKnight = Piece(Knight)
	WhiteBishop = Piece(Bishop)
	WhiteRook   = Piece(Rook)
	WhiteQueen  = Piece(Queen)
	WhiteKing   = Piece(King)
	BlackPawn   = Piece(8 | Pawn)
	BlackKnight = Piece(8 | Knight)
	BlackBishop = Piece(8 | Bishop)
	BlackRook   = Piece(8 | Rook)
	BlackQueen  = Piece(8 | Queen)
	BlackKing   = Piece(8 | King)
)

// NewPiece returns the piece of type t and colour c.
func NewPiece(c Color, t PieceType) Piece { return Piece(c)<<3 | Piece(t) }

// Type returns the piece's type (NoPieceType for NoPiece).
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour. It is meaningless for NoPiece.
func (p Piece) Color() Color { return Color(p >> 3) }

// FENLetter returns the piece's letter in FEN: upper case for White
// ("PNBRQK"), lower case for Black, and ' ' for NoPiece.
func (p Piece) FENLetter() byte {
	const letters = " PNBRQK  pnbrqk"
	if int(p) >= len(letters) {
		return ' '
	}
	return letters[p]
}

// String returns the FEN letter of the piece, or "." for an empty square.
func (p Piece) String() string {
	if p == NoPiece {
		return "."
	}
	return string(p.FENLetter())
}
