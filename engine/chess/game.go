package chess

import (
	"errors"
	"fmt"
)

// ErrMoveAfterEnd is wrapped by the error for a move that follows the end of
// the game by the rules (checkmate, stalemate, threefold repetition, the
// fifty-move rule or insufficient material). The server applies those endings
// at once (SPEC section 3), so a later move is not part of the game.
var ErrMoveAfterEnd = errors.New("chess: move after the end of the game")

// Game is the record of one game under the rules: the start position, the
// moves played and the position after each, and the ending the rules decide
// (checkmate, stalemate, insufficient material, fifty-move rule, threefold
// repetition). Clocks and players live in the game package.
type Game struct {
	positions   []Position // positions[0] is the start; positions[i] follows moves[i-1]
	moves       []Move
	termination Termination
}

// NewGame starts a game record from start. A start position that already
// ends the game (mate, stalemate, insufficient material, fifty moves) is
// reported by Termination at once.
func NewGame(start Position) *Game {
	g := &Game{positions: []Position{start}}
	g.termination = start.Termination()
	return g
}

// Position returns the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.positions[0] }

// PositionAt returns the position after ply half-moves (0 is the start).
func (g *Game) PositionAt(ply int) Position { return g.positions[ply] }

// Moves returns the moves played; the caller must not change the slice.
func (g *Game) Moves() []Move { return g.moves }

// Ply returns the number of half-moves played.
func (g *Game) Ply() int { return len(g.moves) }

// Termination returns how the rules ended the game, or NoTermination.
func (g *Game) Termination() Termination { return g.termination }

// Result returns "1-0", "0-1", "1/2-1/2", or "*" while the rules have not
// ended the game.
func (g *Game) Result() string {
	p := g.Position()
	switch {
	case g.termination == Checkmate && p.SideToMove() == Black:
		return "1-0"
	case g.termination == Checkmate:
		return "0-1"
	case g.termination.IsDraw():
		return "1/2-1/2"
	}
	return "*"
}

// Play appends the legal move m. It fails if the game is already over or m
// is not legal in the current position.
func (g *Game) Play(m Move) error {
	if g.termination != NoTermination {
		return fmt.Errorf("%w by %s: %s", ErrMoveAfterEnd, g.termination.Description(), m)
	}
	p := g.Position()
	var buf [MaxMoves]Move
	legal := false
	for _, lm := range p.AppendLegalMoves(buf[:0]) {
		if lm == m {
			legal = true
			break
		}
	}
	if !legal {
		return fmt.Errorf("%w: %s in %s", ErrIllegalMove, m, p.FEN())
	}
	next := p.Play(m)
	g.moves = append(g.moves, m)
	g.positions = append(g.positions, next)
	g.termination = next.Termination()
	if g.termination == NoTermination && g.repetitions() >= 3 {
		g.termination = ThreefoldRepetition
	}
	return nil
}

// repetitions counts how often the current position has occurred. Only
// positions since the last capture or pawn move can repeat it, and only those
// with the same side to move, so it looks back two plies at a time within the
// halfmove clock. Positions are equal when their pieces, side to move,
// castling rights and legal en-passant captures are (FIDE Laws 9.2.3); the
// Zobrist key covers exactly those, and the pieces are compared too so that
// a key collision cannot end a game.
func (g *Game) repetitions() int {
	cur := &g.positions[len(g.positions)-1]
	n := 1
	last := len(g.positions) - 1
	for i := last - 2; i >= 0 && last-i <= int(cur.halfmove); i -= 2 {
		q := &g.positions[i]
		if q.hash == cur.hash && q.board == cur.board && q.castling == cur.castling && q.epSquare == cur.epSquare {
			n++
		}
	}
	return n
}
