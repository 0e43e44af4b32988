package main

import (
	"context"
	"math/rand/v2"
	"time"

	"satranc/engine/bot"
	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
)

// botFactory makes the computer players of practice games: one bot per
// seat with its own seed, searching in the shared pool so that no more
// searches run at once than there are cores.
func botFactory(pool *bot.Pool) play.BotFactory {
	return func(l game.Level) play.BotPlayer {
		level, err := bot.ParseLevel(l.String())
		if err != nil {
			level = bot.Medium
		}
		return practiceBot{pool.Player(bot.New(level, rand.Uint64()))}
	}
}

// practiceBot adapts a bot.Player to the interface engine/play asks for.
type practiceBot struct{ p bot.Player }

func (b practiceBot) Move(ctx context.Context, pos chess.Position, history []uint64, remaining, increment time.Duration) (chess.Move, error) {
	return b.p.Move(ctx, pos, history, bot.Clock{Remaining: remaining, Increment: increment})
}
