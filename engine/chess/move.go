package chess

// Move packs a move into 16 bits, as Stockfish does (src/types.h):
//
//	bits  0-5   origin square
//	bits  6-11  destination square
//	bits 12-13  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen
//	bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
//
// A castling move goes from the king's square to the square the king lands
// on (e1g1), whichever way it was entered. The zero Move is NullMove.
type Move uint16

// NullMove is no move at all.
const NullMove Move = 0

// MoveKind says what is special about a move.
type MoveKind uint8

// The kinds of move.
const (
	NormalMove MoveKind = iota
	Promotion
	EnPassant
	Castling
)

// NewMove returns an ordinary move from one square to another.
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

// NewPromotion returns a pawn move that promotes to piece type t (Knight to Queen).
func NewPromotion(from, to Square, t PieceType) Move {
	return NewMove(from, to) | Move(t-Knight)<<12 | Move(Promotion)<<14
}

func newSpecialMove(from, to Square, k MoveKind) Move { return NewMove(from, to) | Move(k)<<14 }

// From returns the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To returns the destination square; for castling, the king's destination.
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Kind returns what is special about the move.
func (m Move) Kind() MoveKind { return MoveKind(m >> 14) }

// Promotion returns the piece type a pawn promotes to, or NoPieceType.
func (m Move) Promotion() PieceType {
	if m.Kind() != Promotion {
		return NoPieceType
	}
	return PieceType(m>>12&3) + Knight
}

// String returns the move in UCI notation, such as "e2e4", "e7e8q" or "e1g1",
// and "0000" for NullMove.
func (m Move) String() string {
	var b [5]byte
	return string(m.AppendUCI(b[:0]))
}

// AppendUCI appends the move in UCI notation (String) to dst, so that a
// list of moves can be written without a string for each.
func (m Move) AppendUCI(dst []byte) []byte {
	if m == NullMove {
		return append(dst, "0000"...)
	}
	dst = append(dst, m.From().String()...)
	dst = append(dst, m.To().String()...)
	if t := m.Promotion(); t != NoPieceType {
		dst = append(dst, " nbrq"[t-Pawn])
	}
	return dst
}
