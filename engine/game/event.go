package game

import (
	"time"

	"satranc/engine/chess"
)

// Event is something that happened in a game. Its concrete type is one of
// Started, Moved, DrawOffered, DrawDeclined, DrawOfferLapsed, PlayerDisconnected,
// PlayerReconnected and Ended.
type Event interface {
	// EventStamp returns the ply and time of the event.
	EventStamp() Stamp
}

// Stamp is the ply (half-moves played, after the event) and the time of an
// event. The ply serves as the SSE event id.
type Stamp struct {
	Ply  int
	Time time.Time
}

// EventStamp returns s; every event embeds a Stamp.
func (s Stamp) EventStamp() Stamp { return s }

// Clocks is both clocks as seen at one moment.
type Clocks struct {
	// Timed is false for an untimed game; the durations are then zero.
	Timed bool
	// White and Black are the times left at At.
	White, Black time.Duration
	// Running reports whether Side's clock runs (it counts down from At).
	Running bool
	Side    chess.Color
	At      time.Time
}

// RunTo returns c as it stands at now: the running clock counted down by
// the time since At (never below zero), At moved to now. A clock that
// does not run, or a now before At, leaves c as it is.
func (c Clocks) RunTo(now time.Time) Clocks {
	d := now.Sub(c.At)
	if !c.Timed || !c.Running || d <= 0 {
		return c
	}
	if c.Side == chess.White {
		c.White = max(c.White-d, 0)
	} else {
		c.Black = max(c.Black-d, 0)
	}
	c.At = now
	return c
}

// Remaining returns side's time in c.
func (c Clocks) Remaining(side chess.Color) time.Duration {
	if side == chess.White {
		return c.White
	}
	return c.Black
}

// Started: the second player sat down and the game started. The clocks
// start later, with the second side's first move (Game.FirstMoveDeadline).
type Started struct {
	Stamp
	White, Black Seat
}

// Moved: Side played Move; Clocks are the clocks just after it.
type Moved struct {
	Stamp
	Side   chess.Color
	Move   chess.Move
	Clocks Clocks
}

// DrawOffered: By offers a draw.
type DrawOffered struct {
	Stamp
	By chess.Color
}

// DrawDeclined: By declined the opponent's offer.
type DrawDeclined struct {
	Stamp
	By chess.Color
}

// DrawOfferLapsed: By's offer lapsed because the opponent moved instead of
// answering (SPEC section 3 rule 5).
type DrawOfferLapsed struct {
	Stamp
	By chess.Color
}

// PlayerDisconnected: Side lost its connection; it loses at Deadline unless it
// comes back. Its clock keeps running.
type PlayerDisconnected struct {
	Stamp
	Side     chess.Color
	Deadline time.Time
}

// PlayerReconnected: Side is back.
type PlayerReconnected struct {
	Stamp
	Side chess.Color
}

// Ended: the game is over.
type Ended struct {
	Stamp
	Outcome Outcome
	Clocks  Clocks
}
