package chess

// Termination says why a game ended by the rules of play. Endings that come
// from the players or the clock (resignation, time, agreement) live in the
// game package; these are the ones the position itself decides.
type Termination uint8

// The terminations, in the order they are checked after a move: a mate on
// the fiftieth move stands (FIDE Laws 9.3 and 5.1.1), and dead positions are
// drawn at once (5.2.2).
const (
	NoTermination Termination = iota
	Checkmate
	Stalemate
	InsufficientMaterial
	FiftyMoveRule
	ThreefoldRepetition
)

// String returns the name used by `satranc pgn --format json`: "none",
// "checkmate", "stalemate", "insufficient", "fifty" or "threefold".
func (t Termination) String() string {
	return [...]string{"none", "checkmate", "stalemate", "insufficient", "fifty", "threefold"}[t]
}

// Description returns the termination as a PGN Termination tag value:
// "checkmate", "stalemate", "insufficient material", "fifty-move rule",
// "threefold repetition" or "unterminated".
func (t Termination) Description() string {
	return [...]string{"unterminated", "checkmate", "stalemate", "insufficient material", "fifty-move rule", "threefold repetition"}[t]
}

// IsDraw reports whether the termination is a draw.
func (t Termination) IsDraw() bool { return t >= Stalemate }

// Termination returns how the game ends in p by the position alone, ignoring
// repetition (which needs the history; see Game): checkmate, stalemate,
// insufficient material or the fifty-move rule.
func (p *Position) Termination() Termination {
	var buf [MaxMoves]Move
	if len(p.AppendLegalMoves(buf[:0])) == 0 {
		if p.InCheck() {
			return Checkmate
		}
		return Stalemate
	}
	if p.InsufficientMaterial() {
		return InsufficientMaterial
	}
	if p.halfmove >= 100 {
		return FiftyMoveRule
	}
	return NoTermination
}

// InsufficientMaterial reports whether neither side can ever mate, in
// exactly the cases SPEC section 3 lists: K v K, K+B v K, K+N v K, and K+B v
// K+B with both bishops on squares of the same colour.
func (p *Position) InsufficientMaterial() bool {
	if p.byType[Pawn]|p.byType[Rook]|p.byType[Queen] != 0 {
		return false
	}
	minors := p.byType[Knight] | p.byType[Bishop]
	switch minors.Count() {
	case 0:
		return true
	case 1:
		return true
	case 2:
		bishops := p.byType[Bishop]
		if bishops.Count() != 2 || p.Pieces(White, Bishop).Count() != 1 {
			return false // two knights, a knight and a bishop, or both bishops on one side
		}
		return bishops&lightSquares == bishops || bishops&darkSquares == bishops
	}
	return false
}

// TimeoutIsDraw reports whether running out of time is a draw for the side
// flagged rather than a loss: SPEC section 3 rule 6 draws it when the
// opponent has only a king, or a king with a single bishop or a single
// knight.
func (p *Position) TimeoutIsDraw(flagged Color) bool {
	opp := flagged.Other()
	rest := p.byColor[opp] &^ p.byType[King]
	switch {
	case rest == 0:
		return true
	case rest&(rest-1) == 0:
		return rest&(p.byType[Bishop]|p.byType[Knight]) != 0
	}
	return false
}
