package play

import (
	"context"
	mrand "math/rand/v2"
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

// DrawAnswerer is a BotPlayer that answers a draw offer: it reports
// whether it accepts a draw in pos, playing side (history as for Move). A
// bot that is not one declines every offer.
type DrawAnswerer interface {
	AnswerDraw(ctx context.Context, pos chess.Position, history []uint64, side chess.Color) bool
}

// Resigner is a BotPlayer that gives up a lost game as a person does:
// asked, before the move it chose in pos is played, whether it resigns
// instead (engine/bot Bot.Resigns). A bot that is not one plays on.
type Resigner interface {
	Resigns(pos chess.Position) bool
}

// DrawOfferer is a BotPlayer that offers draws as a person does: asked,
// once the move it chose in pos (history as for Move) is played, whether
// it offers a draw with it (engine/bot Bot.OffersDraw). A bot that is not
// one never offers.
type DrawOfferer interface {
	OffersDraw(pos chess.Position, history []uint64) bool
}

// botResigns returns the events of side's bot resigning in the current
// position, and true, when the bot gives up rather than play the move it
// chose there (botMove asks before it plays the move).
func (t *table) botResigns(side chess.Color, now time.Time) ([]game.Event, bool) {
	r, ok := t.bots[side].(Resigner)
	if !ok || !r.Resigns(t.g.Position()) {
		return nil, false
	}
	evs, err := t.g.Resign(side, now)
	if err != nil {
		// The game ended first (a flag fell): commit that instead.
		t.s.log.Warn("play: bot's resignation refused", "game", t.id, "err", err)
		return evs, len(evs) > 0
	}
	return evs, true
}

// botOffersDraw returns the events of side's bot offering a draw with the
// move it has just played from pos (hist: the keys of the positions
// before pos), if it offers one and the game goes on.
func (t *table) botOffersDraw(side chess.Color, pos chess.Position, hist []uint64, now time.Time) []game.Event {
	o, ok := t.bots[side].(DrawOfferer)
	if !ok || t.g.Status() != game.Active || !o.OffersDraw(pos, hist) {
		return nil
	}
	evs, err := t.g.OfferDraw(side, now)
	if err != nil {
		t.s.log.Warn("play: bot's draw offer refused", "game", t.id, "err", err)
	}
	return evs
}

// publicDrawDelay returns how long a bot at a public table takes to answer
// a draw offer: 1 to 3 s, as a person would, so that an answer at once
// does not give the bot away (SPEC section 6). In a practice game the
// computer answers at once.
func publicDrawDelay() time.Duration {
	return time.Second + time.Duration(mrand.Int64N(int64(2*time.Second)))
}

// drawAnswer is a bot's answer to the draw offer standing at ply.
type drawAnswer struct {
	ply    int
	accept bool
}

// BotFactory returns a fresh BotPlayer at level for one game (a bot may keep
// state, such as a transposition table, between the moves of its game).
type BotFactory func(level game.Level) BotPlayer

// botResult is a bot's answer for the position at ply.
type botResult struct {
	search int // table.search when it started
	ply    int
	move   chess.Move
	err    error
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

// drawToBot returns the side of a bot that has a draw offer to answer.
func (t *table) drawToBot() (chess.Color, bool) {
	by, ok := t.g.DrawOffer()
	if !ok || t.g.Status() != game.Active || !t.g.Seat(by.Other()).IsBot() {
		return chess.White, false
	}
	return by.Other(), true
}

// startDrawAnswer asks side's computer player, in its own goroutine, for
// its answer to the draw offer standing now, and returns the function that
// cancels it. The answer is applied in a turn of its own, after a
// human-like delay at a public table, unless the game has moved on
// meanwhile (answerDraw).
func (t *table) startDrawAnswer(side chess.Color) context.CancelFunc {
	var b BotPlayer
	if t.s.bots != nil {
		b = t.bot(side)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pos, hist, ply := t.g.Position(), t.g.Record().History(), t.g.Ply()
	var delay time.Duration
	if t.kind == Quick || t.kind == Lounge {
		delay = publicDrawDelay()
	}
	t.s.wg.Add(1)
	go func() {
		defer t.s.wg.Done()
		accept := false
		if d, ok := b.(DrawAnswerer); ok {
			accept = d.AnswerDraw(ctx, pos, hist, side)
		}
		if delay > 0 {
			timer := time.NewTimer(delay)
			defer timer.Stop()
			select {
			case <-timer.C:
			case <-ctx.Done():
				return
			}
		}
		t.enter(ctx, func() { t.answerDraw(drawAnswer{ply: ply, accept: accept}) })
	}()
	return cancel
}

// answerDraw applies a bot's answer if the offer it answers still stands
// in the same position.
func (t *table) answerDraw(a drawAnswer) {
	side, ok := t.drawToBot()
	if !ok || a.ply != t.g.Ply() {
		return
	}
	now := t.s.now()
	var evs []game.Event
	var err error
	if a.accept {
		evs, err = t.g.AcceptDraw(side, now)
	} else {
		evs, err = t.g.DeclineDraw(side, now)
	}
	if err != nil {
		t.s.log.Warn("play: bot's draw answer refused", "game", t.id, "err", err)
	}
	_ = t.commit(evs)
}
