package chess

import (
	"errors"
	"fmt"
)

var (
	// ErrInvalidUCI is wrapped by errors for text that is not a UCI move at all.
	ErrInvalidUCI = errors.New("chess: invalid UCI move")
	// ErrIllegalMove is wrapped by errors for a well-formed move (UCI or SAN)
	// that is not legal in the position.
	ErrIllegalMove = errors.New("chess: illegal move")
)

// ParseUCI reads a move in UCI long algebraic notation ("e2e4", "e7e8q") and
// returns the legal move it names in p. Castling may be given as the king's
// two-square step (e1g1) or as the king moving onto its own rook (e1h1), the
// form a drag-and-drop board sends. A well-formed move that is not legal
// wraps ErrIllegalMove.
func (p *Position) ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NullMove, fmt.Errorf("%w: %q: want 4 or 5 characters such as e2e4 or e7e8q", ErrInvalidUCI, s)
	}
	from, err1 := ParseSquare(s[0:2])
	to, err2 := ParseSquare(s[2:4])
	if err1 != nil || err2 != nil {
		return NullMove, fmt.Errorf("%w: %q: not two squares", ErrInvalidUCI, s)
	}
	promo := NoPieceType
	if len(s) == 5 {
		switch s[4] {
		case 'q':
			promo = Queen
		case 'r':
			promo = Rook
		case 'b':
			promo = Bishop
		case 'n':
			promo = Knight
		default:
			return NullMove, fmt.Errorf("%w: %q: promotion must be q, r, b or n", ErrInvalidUCI, s)
		}
	}

	// The king onto its own rook is castling toward that rook.
	if own := p.board[from]; own.Type() == King && p.board[to] == NewPiece(own.Color(), Rook) && promo == NoPieceType {
		switch {
		case to.Rank() == from.Rank() && to.File() == 7:
			to = from + 2
		case to.Rank() == from.Rank() && to.File() == 0:
			to = from - 2
		}
	}

	var buf [MaxMoves]Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, nil
		}
	}
	return NullMove, fmt.Errorf("%w: %s in %s", ErrIllegalMove, s, p.FEN())
}
