package play

import (
	"context"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
)

// BotPlayer chooses a computer player's moves in one game. Move returns a
// legal move in pos; history holds the Zobrist keys of the game's earlier
// positions, oldest first (for repetitions); remaining and increment are the
// bot's own clock (0 when untimed). When ctx is done it should answer at
// once; play discards a move for a game that has moved on or ended.
type BotPlayer interface {
	Move(ctx context.Context, pos chess.Position, history []uint64, remaining, increment time.Duration) (chess.Move, error)
}

// BotFactory returns a fresh BotPlayer at level for one game (a bot may keep
// state, such as a transposition table, between the moves of its game).
type BotFactory func(level game.Level) BotPlayer

// botResult is a bot's answer for the position at ply.
type botResult struct {
	ply  int
	move chess.Move
	err  error
}

// history returns the keys of the positions before the current one.
func history(r *chess.Game) []uint64 {
	keys := make([]uint64, r.Ply())
	for i := range keys {
		p := r.PositionAt(i)
		keys[i] = p.Hash()
	}
	return keys
}

// firstLegal returns a legal move, for when a bot fails.
func firstLegal(p chess.Position) (chess.Move, bool) {
	var buf [chess.MaxMoves]chess.Move
	moves := p.AppendLegalMoves(buf[:0])
	if len(moves) == 0 {
		return chess.NullMove, false
	}
	return moves[0], true
}
