package clock

import (
	"time"

	"satranc/engine/chess"
)

// Clock is a chess clock: two countdowns of which at most one runs. Only the
// clock of the side to move runs; pressing it (after a move) stops the
// mover's time, adds the increment and starts the opponent's (SPEC section 4).
// The zero Clock is untimed and stopped.
type Clock struct {
	control   Control
	remaining [2]time.Duration // as of since for the running side; exact for the other
	side      chess.Color      // whose clock runs, if running
	running   bool
	since     time.Time // when side's clock last started
	// lagSpent is what each side has used of its lag allowance
	// (LagCredit). It is not part of a Snapshot: a restored clock starts
	// with full allowances, a gift of LagQuota at most per restart.
	lagSpent [2]time.Duration
}

// New returns a stopped clock with the control's initial time on both sides.
func New(c Control) Clock {
	return Clock{control: c, remaining: [2]time.Duration{c.Initial, c.Initial}}
}

// Control returns the clock's time control.
func (c *Clock) Control() Control { return c.control }

// Running reports whether a clock runs, and whose.
func (c *Clock) Running() (chess.Color, bool) { return c.side, c.running }

// Start starts side's clock at now; the other one stops (without increment).
func (c *Clock) Start(side chess.Color, now time.Time) {
	c.Stop(now)
	c.side, c.running, c.since = side, true, now
}

// Stop stops the running clock at now, charging the time used; a stopped
// clock stays as it is.
func (c *Clock) Stop(now time.Time) {
	if !c.running {
		return
	}
	c.remaining[c.side] = c.Remaining(c.side, now)
	c.running = false
}

// Press ends the running side's move at now: its clock stops, the increment
// is added and the opponent's clock starts. It returns the mover's remaining
// time after the increment (0 when untimed). Pressing a stopped clock does
// nothing and returns 0: Start says whose move comes first.
func (c *Clock) Press(now time.Time) time.Duration {
	left, _ := c.PressLag(now, 0)
	return left
}

// PressLag is Press for a move whose network time is estimated at lag:
// part of the time the move cost is given back to the mover, as
// LagCredit bounds it, before the increment is added. It returns the
// mover's remaining time and the time given back (both 0 when untimed or
// stopped). The mover's clock never ends above its value before the move
// plus the increment.
func (c *Clock) PressLag(now time.Time, lag time.Duration) (left, credit time.Duration) {
	if !c.running {
		return 0, 0
	}
	mover := c.side
	before := c.remaining[mover]
	c.Stop(now)
	if c.control.Timed() {
		credit, c.lagSpent[mover] = LagCredit(lag, before-c.remaining[mover], c.lagSpent[mover])
		c.remaining[mover] += credit + c.control.Increment
	}
	c.side, c.running, c.since = mover.Other(), true, now
	return c.remaining[mover], credit
}

// Remaining returns side's time left at now, never below zero; it is 0
// for an untimed clock.
func (c *Clock) Remaining(side chess.Color, now time.Time) time.Duration {
	if !c.control.Timed() {
		return 0
	}
	r := c.remaining[side]
	if c.running && c.side == side && now.After(c.since) {
		r -= now.Sub(c.since)
	}
	return max(r, 0)
}

// Flagged reports whether the running side has run out of time at now, and
// which side that is. An untimed or stopped clock never flags.
func (c *Clock) Flagged(now time.Time) (chess.Color, bool) {
	if !c.running || !c.control.Timed() {
		return c.side, false
	}
	return c.side, c.Remaining(c.side, now) <= 0
}

// FlagAt returns the moment the running side will run out of time, if a
// timed clock runs.
func (c *Clock) FlagAt() (time.Time, bool) {
	if !c.running || !c.control.Timed() {
		return time.Time{}, false
	}
	return c.since.Add(c.remaining[c.side]), true
}

// SetRemaining sets side's time left at now to d (not below zero). A running
// clock of that side continues from now. Restart recovery uses it to grant a
// grace period.
func (c *Clock) SetRemaining(side chess.Color, d time.Duration, now time.Time) {
	c.remaining[side] = max(d, 0)
	if c.running && c.side == side {
		c.since = now
	}
}

// Snapshot is a clock's state as plain values, to store and restore it.
type Snapshot struct {
	Control Control
	// White and Black are each side's time left as of Since for the running
	// side, and exactly for the other.
	White, Black time.Duration
	// Running reports whether Side's clock runs, since Since.
	Running bool
	Side    chess.Color
	Since   time.Time
}

// Snapshot returns the clock's state.
func (c *Clock) Snapshot() Snapshot {
	return Snapshot{
		Control: c.control,
		White:   c.remaining[chess.White], Black: c.remaining[chess.Black],
		Running: c.running, Side: c.side, Since: c.since,
	}
}

// Restore returns the clock a Snapshot describes.
func Restore(s Snapshot) Clock {
	return Clock{
		control:   s.Control,
		remaining: [2]time.Duration{s.White, s.Black},
		side:      s.Side, running: s.Running, since: s.Since,
	}
}
