package game

import (
	"time"

	"satranc/engine/chess"
)

// Tick applies the passing of time at now: a flag fall (a loss, or a draw
// against a lone king or a king and a single minor piece, SPEC section 3
// rule 6), a first move not made in time (the game is aborted, NoFirstMove,
// SPEC section 4) or a disconnection deadline (a loss). Whichever came
// first ends the game. A Waiting game whose invitation has expired (Options.JoinBy)
// is cancelled: aborted, with no result. It returns the events, none if
// nothing happened.
func (g *Game) Tick(now time.Time) []Event {
	if g.status == Waiting {
		if by, ok := g.JoinBy(); ok && !now.Before(by) {
			return []Event{g.finish(Outcome{Result: NoResult, Reason: InviteExpired, Side: g.host()}, by)}
		}
		return nil
	}
	if g.status != Active {
		return nil
	}
	when, ok := g.NextDeadline()
	if !ok || now.Before(when) {
		return nil
	}
	if flagAt, ok := g.clock.FlagAt(); ok && !flagAt.After(when) {
		side, _ := g.clock.Running()
		o := Outcome{Result: winFor(side.Other()), Reason: Timeout, Side: side}
		if p := g.record.Position(); p.TimeoutIsDraw(side) {
			o.Result, o.Reason = Draw, TimeoutVsInsufficient
		}
		return []Event{g.finishByPlayer(o, flagAt)}
	}
	if side, by, ok := g.FirstMoveDeadline(); ok && !by.After(when) {
		return []Event{g.finish(Outcome{Result: NoResult, Reason: NoFirstMove, Side: side}, by)}
	}
	for _, side := range []chess.Color{chess.White, chess.Black} {
		if d := g.disconnect[side]; !d.IsZero() && d.Equal(when) {
			return []Event{g.finishByPlayer(Outcome{Result: winFor(side.Other()), Reason: Disconnected, Side: side}, d)}
		}
	}
	return nil
}

// Resign ends the game at now: side loses, unless the abort rule applies.
func (g *Game) Resign(side chess.Color, now time.Time) ([]Event, error) {
	evs, err := g.check(now)
	if err != nil {
		return evs, err
	}
	return append(evs, g.finishByPlayer(Outcome{Result: winFor(side.Other()), Reason: Resignation, Side: side}, now)), nil
}

// Leave is side leaving the table at now: a loss (SPEC section 8), unless
// the abort rule applies. Leaving a Waiting game aborts it.
func (g *Game) Leave(side chess.Color, now time.Time) ([]Event, error) {
	if g.status == Waiting {
		return []Event{g.finish(Outcome{Reason: Abort, Side: side, Cause: LeftTable}, now)}, nil
	}
	evs, err := g.check(now)
	if err != nil {
		return evs, err
	}
	return append(evs, g.finishByPlayer(Outcome{Result: winFor(side.Other()), Reason: LeftTable, Side: side}, now)), nil
}

// finishByPlayer ends the game with o, an ending caused by o.Side
// (resignation, leaving, time, disconnection), applying the abort rule of
// SPEC section 3: while either side has made fewer than 2 moves, the game
// is aborted by o.Side instead.
func (g *Game) finishByPlayer(o Outcome, at time.Time) Event {
	if g.Abortable() {
		o = Outcome{Result: NoResult, Reason: Abort, Side: o.Side, Cause: o.Reason}
	}
	return g.finish(o, at)
}

// Abortable reports whether the abort rule of SPEC section 3 applies now:
// either side has made fewer than 2 moves, so that resigning, leaving, a
// flag or a disconnection would abort the game instead of deciding it.
// Pages call the resign button Abort while it holds.
func (g *Game) Abortable() bool {
	return g.movesBy(chess.White) < 2 || g.movesBy(chess.Black) < 2
}

// finish ends the game at at with o: the clocks stop, offers and
// disconnections are cleared.
func (g *Game) finish(o Outcome, at time.Time) Event {
	g.clock.Stop(at)
	g.outcome = o
	g.status = Finished
	if o.IsAborted() {
		g.status = Aborted
	}
	g.endedAt = at
	g.offer = false
	g.disconnect = [2]time.Time{}
	g.firstMoveBy = time.Time{}
	return Ended{Stamp: g.stamp(at), Outcome: o, Clocks: g.Clocks(at)}
}

// host returns the side of the player who is waiting in a Waiting game:
// the one who made the invitation.
func (g *Game) host() chess.Color {
	if g.seats[chess.White].IsEmpty() {
		return chess.Black
	}
	return chess.White
}
