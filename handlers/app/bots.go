package app

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
// searches run at once than there are cores, and answering after the
// thinking time of a person of its level (bot.PracticePace: 0.3–2 s in an
// untimed game, quick for book moves, recaptures and forced moves).
func botFactory(pool *bot.Pool) play.BotFactory {
	return func(l game.Level) play.BotPlayer {
		level, err := bot.ParseLevel(l.String())
		if err != nil {
			level = bot.Medium
		}
		seed := rand.Uint64()
		b := bot.New(level, seed)
		return practiceBot{p: bot.Paced(pool.Player(b), bot.PracticePace(level), seed), b: b}
	}
}

// practiceBot adapts a bot.Player to the interfaces engine/play asks for:
// p plays the moves (in the pool, paced at a public table), and b, the
// bot itself, answers draw offers (play.DrawAnswerer).
type practiceBot struct {
	p bot.Player
	b *bot.Bot
}

// AnswerDraw implements play.DrawAnswerer: the bot's own judgement of the
// position (engine/bot AcceptsDraw).
func (b practiceBot) AnswerDraw(ctx context.Context, pos chess.Position, history []uint64, side chess.Color) bool {
	return b.b.AnswerDraw(ctx, pos, history, side)
}

// Resigns implements play.Resigner: the bot gives up a hopeless game
// (engine/bot Bot.Resigns).
func (b practiceBot) Resigns(pos chess.Position) bool { return b.b.Resigns(pos) }

// OffersDraw implements play.DrawOfferer: the bot offers a draw in a
// dead-drawn or repeating position (engine/bot Bot.OffersDraw).
func (b practiceBot) OffersDraw(pos chess.Position, history []uint64) bool {
	return b.b.OffersDraw(pos, history)
}

func (b practiceBot) Move(ctx context.Context, pos chess.Position, history []uint64, remaining, increment time.Duration) (chess.Move, error) {
	return b.p.Move(ctx, pos, history, bot.Clock{Remaining: remaining, Increment: increment})
}

// publicBotFactory makes the computer players that fill empty seats at
// public tables: the same search, but answering after the thinking time of
// a person of its level at blitz (bot.TablePace: at least 0.5 s, quick for
// forced moves and recaptures, less of the clock for a weaker level, and
// less as the clock runs low), so that a seat filled by a bot plays like a
// person rather than in 5 ms.
func publicBotFactory(pool *bot.Pool) play.BotFactory {
	return func(l game.Level) play.BotPlayer {
		level, err := bot.ParseLevel(l.String())
		if err != nil {
			level = bot.Medium
		}
		seed := rand.Uint64()
		b := bot.New(level, seed)
		return practiceBot{p: bot.Paced(pool.Player(b), bot.TablePace(level), seed), b: b}
	}
}
