package chess

// This file holds the small helpers a game-tree search needs beyond the rules.

// PlayNull returns the position after a null move: the side to move passes.
// The en-passant square is cleared and the half-move clock advances; nothing
// else changes. It is not a legal chess move: searches use it for null-move
// pruning (https://www.chessprogramming.org/Null_Move_Pruning) and must not
// call it when the side to move is in check.
func (p Position) PlayNull() Position {
	if p.epSquare != NoSquare {
		p.hash ^= zobristEPFile[p.epSquare.File()]
		p.epSquare = NoSquare
	}
	p.halfmove++
	if p.side == Black {
		p.fullmove++
	}
	p.side = p.side.Other()
	p.hash ^= zobristBlack
	return p
}

// IsCapture reports whether the legal move m takes a piece, en passant included.
func (p *Position) IsCapture(m Move) bool {
	return m.Kind() == EnPassant || (m.Kind() != Castling && p.board[m.To()] != NoPiece)
}

// AttackersTo returns the pieces of both colours that attack s when the
// squares in occupied are the blockers. Static exchange evaluation uses it
// with pieces removed from occupied one by one.
func (p *Position) AttackersTo(s Square, occupied Bitboard) Bitboard {
	return p.attackersTo(s, occupied) & occupied
}
