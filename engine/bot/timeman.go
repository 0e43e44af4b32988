package bot

import "time"

// Clock is what a player knows about its own clock when it is to move.
type Clock struct {
	Remaining time.Duration // time left on the player's clock; 0 in an untimed game
	Increment time.Duration // added after each move
	MovesToGo int           // moves until the next time control; 0 for sudden death
}

// moveOverhead is kept back from every budget for the time it takes the
// move to reach the clock (process scheduling, pipes, the network).
const moveOverhead = 30 * time.Millisecond

// Budget returns how long to think about one move with the clock c, in the
// manner of Stockfish's timeman.cpp: a soft limit after which no new
// iteration starts, and a hard limit at which the search stops at once.
// Both are zero (no limit) in an untimed game. The budget spreads the
// remaining time over about 30 more moves (or MovesToGo), spends most of the
// increment, and never lets one move take more than a fifth of the clock, so
// a bot does not lose on time in a normal game.
func Budget(c Clock) (soft, hard time.Duration) {
	if c.Remaining <= 0 {
		return 0, 0
	}
	avail := max(c.Remaining-moveOverhead, time.Millisecond)
	mtg := 30
	if c.MovesToGo > 0 {
		mtg = min(c.MovesToGo, 30)
	}
	soft = avail/time.Duration(mtg) + c.Increment*3/4
	limit := avail / 5
	if mtg == 1 {
		limit = avail * 3 / 4
	}
	hard = min(soft*4, limit)
	soft = min(soft, hard)
	return max(soft, time.Millisecond), max(hard, time.Millisecond)
}

// Pace is a human-like thinking-time policy: a bot never answers faster
// than a person could, nor dawdles. Paced applies it.
type Pace struct {
	Min, Max time.Duration // the usual range of a thinking time
	// Untimed is the usual thinking time in an untimed game; 0 means the
	// middle of Min and Max. An untimed game never waits over
	// untimedPaceMax.
	Untimed time.Duration
	// Scale multiplies the share of the clock a move takes (a weaker
	// player uses less of it); 0 means 1.
	Scale float64
}

// untimedPaceMax bounds a thinking time in an untimed game: there is no
// clock to spend, and nobody wants to wait for a practice partner.
const untimedPaceMax = 2 * time.Second

// BlitzPace answers in 0.5 to 5 seconds, less when the clock runs low: the
// bots at public tables.
var BlitzPace = Pace{Min: 500 * time.Millisecond, Max: 5 * time.Second}

// Delay returns how long a move should appear to take, given the clock,
// the move number and a random value r (derive it from a seed to make it
// reproducible). The usual target is a thirtieth of the clock plus half the
// increment (times Scale), spread between 0.3 and 1.5 times that, halved
// in the first moves of the opening, and kept within [Min, Max]; but never
// more than a twentieth of the remaining time, so that a bot short of time
// speeds up as a person does. In an untimed game the target is Untimed and
// the wait at most untimedPaceMax. The zero Pace returns 0. MoveDelay
// weighs the move as well.
func (pc Pace) Delay(c Clock, moveNumber int, r uint64) time.Duration {
	return pc.clamp(pc.raw(c, moveNumber, r), c)
}

// raw is Delay before it is kept within its bounds.
func (pc Pace) raw(c Clock, moveNumber int, r uint64) time.Duration {
	target := (pc.Min + pc.Max) / 2
	if pc.Untimed > 0 {
		target = pc.Untimed
	}
	if c.Remaining > 0 {
		target = c.Remaining/30 + c.Increment/2
		if pc.Scale > 0 {
			target = time.Duration(float64(target) * pc.Scale)
		}
	}
	spread := 0.3 + 1.2*float64(r>>11)/(1<<53)
	d := time.Duration(float64(target) * spread)
	if moveNumber <= 4 {
		d /= 2
	}
	return d
}

// clamp keeps d within the pace's bounds for the clock c.
func (pc Pace) clamp(d time.Duration, c Clock) time.Duration {
	if pc.Max <= 0 {
		return 0
	}
	d = min(max(d, pc.Min), pc.Max)
	if c.Remaining > 0 {
		d = min(d, c.Remaining/20)
	} else {
		d = min(d, max(untimedPaceMax, pc.Min))
	}
	return d
}
