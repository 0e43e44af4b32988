package game

import (
	"errors"
	"fmt"
	"time"

	"satranc/engine/chess"
)

// Move plays m for side at now. expectedPly is the ply the mover's page
// showed: if the game has moved on (or the request is a duplicate), the move
// is refused with ErrStalePly instead of being applied twice. Errors wrap
// ErrNotStarted, ErrGameOver, ErrStalePly, ErrNotYourTurn or
// chess.ErrIllegalMove. Events are returned even with an error when the
// clock ended the game first.
//
// A move by a disconnected side proves it is back (PlayerReconnected); a move by
// the side a draw was offered to lets the offer lapse (SPEC section 3 rule 5).
func (g *Game) Move(side chess.Color, m chess.Move, expectedPly int, now time.Time) ([]Event, error) {
	return g.MoveWithLag(side, m, expectedPly, now, 0)
}

// MoveWithLag is Move for a move whose network time is estimated at lag
// (the mover's round-trip time, as the server measured it): once the
// clocks run, part of the time the move cost is given back to the mover,
// within the bounds of clock.LagCredit. The first moves, which cost no
// time, get nothing back, and neither does a player whose flag has
// fallen: the move is refused as Move refuses it.
func (g *Game) MoveWithLag(side chess.Color, m chess.Move, expectedPly int, now time.Time, lag time.Duration) ([]Event, error) {
	evs, err := g.check(now)
	if err != nil {
		return evs, err
	}
	if ply := g.record.Ply(); expectedPly != ply {
		return evs, fmt.Errorf("%w: move %s for ply %d, game is at ply %d", ErrStalePly, m, expectedPly, ply)
	}
	if stm := g.sideToMove(); side != stm {
		return evs, fmt.Errorf("%w: %s to move", ErrNotYourTurn, stm)
	}
	if err := g.record.Play(m); err != nil {
		if errors.Is(err, chess.ErrMoveAfterEnd) {
			return evs, fmt.Errorf("%w: %w", ErrGameOver, err)
		}
		return evs, fmt.Errorf("game: move: %w", err)
	}
	left := g.pressClock(side, now, lag)
	g.moves = append(g.moves, MoveRecord{Move: m, At: InstantOf(now), Clock: left})

	if !g.disconnect[side].IsZero() {
		g.disconnect[side] = time.Time{}
		evs = append(evs, PlayerReconnected{Stamp: g.stamp(now), Side: side})
	}
	if g.offer && g.offerBy != side {
		g.offer = false
		evs = append(evs, DrawOfferLapsed{Stamp: g.stamp(now), By: g.offerBy})
	}
	evs = append(evs, Moved{Stamp: g.stamp(now), Side: side, Move: m, Clocks: g.Clocks(now)})

	if t := g.record.Termination(); t != chess.NoTermination {
		o := Outcome{Reason: reasonOf(t), Result: Draw}
		if t == chess.Checkmate {
			o.Result, o.Side = winFor(side), side.Other()
		}
		evs = append(evs, g.finish(o, now))
	}
	return evs, nil
}

// pressClock ends side's move, just played, on the clocks at now and
// returns side's time left. Once the clocks run, that is pressing the
// clock: side's clock stops with the increment added and the opponent's
// starts. Before, the first moves cost no time and earn no increment (SPEC
// section 4; lichess starts its clocks after the second half-move too): a
// first move gives the opponent its first-move time, and the second side's
// first move starts the clock of the side to move. lag is the move's
// estimated network time (clock.Clock.PressLag).
func (g *Game) pressClock(side chess.Color, now time.Time, lag time.Duration) time.Duration {
	if _, running := g.clock.Running(); running {
		left, _ := g.clock.PressLag(now, lag)
		return left
	}
	if g.record.Ply() == 1 {
		g.firstMoveBy = g.firstMoveDeadlineFrom(now)
	} else {
		g.firstMoveBy = time.Time{}
		g.clock.Start(g.sideToMove(), now)
	}
	return g.clock.Remaining(side, now)
}

// ParseMove reads a move typed or sent for the current position: UCI
// ("e2e4", "e7e8q", the king onto its own rook for castling) or SAN in the
// letters l (SPEC section 1). Errors wrap chess.ErrIllegalMove,
// chess.ErrInvalidSAN or chess.ErrAmbiguousSAN.
func (g *Game) ParseMove(text string, l chess.Letters) (chess.Move, error) {
	p := g.record.Position()
	m, err := p.ParseUCI(text)
	if err == nil || !errors.Is(err, chess.ErrInvalidUCI) {
		return m, err
	}
	return p.ParseSAN(text, l)
}
