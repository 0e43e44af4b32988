package bot

import (
	"context"
	"time"

	"satranc/engine/chess"
)

// A bot answers a draw offer as a sensible player would: it accepts when
// it stands clearly worse, or when the position is dead equal late in the
// game, and declines otherwise. It judges by its own short search of the
// position, at its level (noise and all), so a weak bot misjudges as it
// does when it plays.
const (
	// drawWorse is the evaluation, in centipawns from the bot's side, at
	// or below which it stands clearly worse: a piece down, about.
	drawWorse = -150
	// drawEqual bounds a dead-equal evaluation, ±centipawns.
	drawEqual = 25
	// drawLateMove is the move number from which a game is late; fewer
	// than drawLatePieces pieces other than kings and pawns make it late
	// as well (an endgame).
	drawLateMove   = 40
	drawLatePieces = 5
	// drawThinkTime bounds the search that judges a draw offer.
	drawThinkTime = 150 * time.Millisecond
)

// AcceptsDraw reports whether a player whose evaluation of p is score
// (centipawns or a mate score, from that player's own point of view)
// accepts a draw offer: when clearly worse, when dead equal late in the
// game, or in a dead-drawn ending (resign.go) when not clearly better.
func AcceptsDraw(p chess.Position, score int) bool {
	if score <= drawWorse {
		return true
	}
	if _, mate := MateIn(score); mate {
		return false
	}
	return abs(score) <= drawEqual && lateGame(p) || deadDrawn(&p) && score <= drawOfferScore
}

// lateGame reports whether p is late in a game: from move drawLateMove,
// or with few pieces left besides kings and pawns.
func lateGame(p chess.Position) bool {
	if p.FullmoveNumber() >= drawLateMove {
		return true
	}
	pieces := 0
	for c := chess.White; c <= chess.Black; c++ {
		for t := chess.Knight; t <= chess.Queen; t++ {
			pieces += p.Pieces(c, t).Count()
		}
	}
	return pieces < drawLatePieces
}

// AnswerDraw reports whether the bot, playing side, accepts a draw offered
// in p (history as for Move): AcceptsDraw with the score of a short search
// at the bot's level, or, when p repeats an earlier position, if the bot
// stands no better than equal.
func (b *Bot) AnswerDraw(ctx context.Context, p chess.Position, history []uint64, side chess.Color) bool {
	b.mu.Lock()
	res := b.think(ctx, p, history, Limits{Hard: drawThinkTime, Soft: drawThinkTime}, nil)
	b.mu.Unlock()
	score := res.Score
	if p.SideToMove() != side {
		score = -score
	}
	return AcceptsDraw(p, score) || repeats(&p, history) && score <= drawEqual
}
