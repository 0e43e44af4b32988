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
// moves played, the current position, and the ending the rules decide
// (checkmate, stalemate, insufficient material, fifty-move rule, threefold
// repetition). Clocks and players live in the game package.
//
// A server holds one Game per active game, so it keeps no Position per ply
// (168 bytes each): the start and the moves give every earlier position by
// replaying (PositionAt), and repetition needs only the Zobrist keys of the
// positions since the last capture or pawn move, 8 bytes each, until two
// keys match.
type Game struct {
	start, pos Position // the start and the current position
	moves      []Move
	// since holds the keys of the positions since the last capture or
	// pawn move, or the start, the current one last: the only positions
	// that can repeat it (repetitions).
	since       []uint64
	termination Termination
}

// NewGame starts a game record from start. A start position that already
// ends the game (mate, stalemate, insufficient material, fifty moves) is
// reported by Termination at once.
func NewGame(start Position) *Game {
	g := &Game{start: start, pos: start, since: []uint64{start.hash}}
	g.termination = start.Termination()
	return g
}

// Position returns the current position.
func (g *Game) Position() Position { return g.pos }

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.start }

// PositionAt returns the position after ply half-moves (0 is the start).
// Only the start and the current position are kept, so an earlier one is
// replayed from the start: a caller that walks the game should play the
// moves from Start itself.
func (g *Game) PositionAt(ply int) Position {
	if ply == len(g.moves) {
		return g.pos
	}
	p := g.start
	for _, m := range g.moves[:ply] {
		p.play(m)
	}
	return p
}

// History returns the Zobrist keys (Position.Hash) of the positions before
// the current one, oldest first, in a new slice: what a computer player
// needs to know of the game to see repetitions. It replays the game.
func (g *Game) History() []uint64 {
	keys := make([]uint64, len(g.moves))
	p := g.start
	for i, m := range g.moves {
		keys[i] = p.hash
		p.play(m)
	}
	return keys
}

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
	p := &g.pos
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
	g.pos.play(m)
	g.moves = append(g.moves, m)
	if g.pos.halfmove == 0 {
		g.since = g.since[:0] // no earlier position can occur again
	}
	g.since = append(g.since, g.pos.hash)
	g.termination = g.pos.Termination()
	if g.termination == NoTermination && g.repetitions() >= 3 {
		g.termination = ThreefoldRepetition
	}
	return nil
}

// repetitions counts how often the current position has occurred. Only
// positions since the last capture or pawn move can repeat it, and only those
// with the same side to move, so it looks back two plies at a time through
// since. Positions are equal when their pieces, side to move, castling
// rights and legal en-passant captures are (FIDE Laws 9.2.3); the Zobrist
// key covers exactly those. A position whose key matches is replayed and its
// pieces, castling rights and en-passant square compared too, so that a key
// collision cannot end a game; keys match so seldom (at most twice per
// position before the game ends) that replaying costs less than keeping the
// positions would.
func (g *Game) repetitions() int {
	cur := &g.pos
	n := 1
	last := len(g.since) - 1
	first := len(g.moves) - last // the ply of since[0]
	for i := last - 2; i >= 0; i -= 2 {
		if g.since[i] != cur.hash {
			continue
		}
		if q := g.PositionAt(first + i); q.board == cur.board && q.castling == cur.castling && q.epSquare == cur.epSquare {
			n++
		}
	}
	return n
}
