package game

import (
	"fmt"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
)

// Saved is a game as stored: enough to rebuild it with Restore.
type Saved struct {
	Options
	// Status is the stored status. A Waiting game has an empty seat.
	Status Status
	// StartedAt is when the clocks started (zero while Waiting).
	StartedAt time.Time
	// Moves are the moves played, with their times and clocks.
	Moves []MoveRecord
	// Outcome and EndedAt describe a game that is over.
	Outcome Outcome
	EndedAt time.Time
}

// Restore rebuilds a game from its stored form. The moves are replayed with
// the rules, so an illegal stored move is an error. Each side's clock is its
// time after its last move (the initial time before it has moved); in an
// Active game the side to move's clock runs from its opponent's last move,
// so time passed since then, including any downtime, counts against it:
// Restore does not Tick, and a clock may already be out of time. Before both
// sides have made their first move the clocks stand still, and the side to
// move's first-move deadline runs from the start (no move yet) or from the
// first move, as it did before the restart, and may have passed too. See
// EnsureRemaining for granting a grace after a restart.
func Restore(s Saved) (*Game, error) {
	g := New(Options{Control: s.Control, Start: s.Start, DisconnectGrace: s.DisconnectGrace,
		FirstMoveTime: s.FirstMoveTime, JoinBy: s.JoinBy}, time.Time{})
	g.seats = [2]Seat{s.White, s.Black}
	for i, mr := range s.Moves {
		if err := g.record.Play(mr.Move); err != nil {
			return nil, fmt.Errorf("%w: stored move %d: %w", ErrInvalid, i+1, err)
		}
	}
	g.moves = append([]MoveRecord(nil), s.Moves...)
	g.status = s.Status
	g.startedAt = s.StartedAt
	switch {
	case s.Status == Waiting:
		return g, nil
	case s.Status == Aborted && s.StartedAt.IsZero() && len(s.Moves) == 0:
		// Cancelled before anyone joined: by its creator, or because the
		// invitation expired. One seat stays empty.
		g.outcome, g.endedAt = s.Outcome, s.EndedAt
		return g, nil
	}
	if s.White.IsEmpty() || s.Black.IsEmpty() {
		return nil, fmt.Errorf("%w: %s game with an empty seat", ErrInvalid, s.Status)
	}

	snap := clock.Snapshot{Control: s.Control, White: s.Control.Initial, Black: s.Control.Initial}
	snap.Since = s.StartedAt
	startSide := g.startSide()
	for i, mr := range s.Moves {
		mover := startSide
		if i%2 == 1 {
			mover = startSide.Other()
		}
		if mover == chess.White {
			snap.White = mr.Clock
		} else {
			snap.Black = mr.Clock
		}
		snap.Since = mr.At.Time()
	}
	if s.Status == Active {
		switch len(s.Moves) {
		case 0:
			g.firstMoveBy = g.firstMoveDeadlineFrom(s.StartedAt)
		case 1:
			g.firstMoveBy = g.firstMoveDeadlineFrom(s.Moves[0].At.Time())
		default:
			snap.Running, snap.Side = true, g.sideToMove()
		}
		g.clock = clock.Restore(snap)
		return g, nil
	}
	g.clock = clock.Restore(snap)
	g.outcome, g.endedAt = s.Outcome, s.EndedAt
	if s.Outcome.Reason == Timeout || s.Outcome.Reason == TimeoutVsInsufficient {
		g.clock.SetRemaining(s.Outcome.Side, 0, s.EndedAt)
	}
	return g, nil
}

// EnsureRemaining gives the side to move at least grace on its clock at now,
// if the game is Active and timed; it reports whether it had to. Restart
// recovery uses it so that the downtime does not flag a player. While the
// game waits for a first move it moves that move's deadline instead, to at
// least grace (but never more than the first-move time) from now, so that
// the downtime does not abort the game either.
func (g *Game) EnsureRemaining(grace time.Duration, now time.Time) bool {
	if _, by, ok := g.FirstMoveDeadline(); ok {
		least := now.Add(min(grace, g.firstMove))
		if !by.Before(least) {
			return false
		}
		g.firstMoveBy = least
		return true
	}
	side, running := g.clock.Running()
	if g.status != Active || !running || !g.clock.Control().Timed() || g.clock.Remaining(side, now) >= grace {
		return false
	}
	g.clock.SetRemaining(side, grace, now)
	return true
}
