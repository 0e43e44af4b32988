package clock

import (
	"slices"
	"time"
)

// Lag compensation gives a player back the time the network took on their
// move, within bounds (docs/playing.md, "Lag compensation").
//
// A move's network time is one whole round trip: the opponent's move
// travels to the player's page while the player's clock already runs, and
// the answer travels back before the server stops it. So the estimate of a
// move's lag is the player's round-trip time, which the server measures
// itself (a ping on the player's event stream that the page echoes at
// once: handlers/lag.go), never a figure the page reports. A page can still
// answer the pings late to look slower than it is; the bounds make that
// worth little.
//
// The bounds follow the quota model of lichess (scalachess LagTracker:
// each move is compensated up to a quota that every move refills, lichess
// by 0.2 s in the fastest games to 1 s from 3 minutes on, the quota
// starting at 3 and ending at 7 such gains), kept as three fixed figures
// that are easy to tell: at most LagPerMove on one move, from an
// allowance of LagQuota per player and game that each of the player's
// moves refills by LagRefill (never above LagQuota). A player on a slow
// line is thus given back up to 0.5 s a move for a few moves, and about
// 0.25 s a move for the rest of the game.
const (
	// LagPerMove is the most given back on one move.
	LagPerMove = 500 * time.Millisecond
	// LagQuota is each player's allowance in a game, full at the start.
	LagQuota = 2 * time.Second
	// LagRefill is what each move adds back to the mover's allowance.
	LagRefill = 250 * time.Millisecond
)

// LagCredit returns how much to give back on a move whose estimated
// network time is lag and which cost its player elapsed of their clock,
// when spent of the player's allowance is used: lag, but at most
// LagPerMove, what is left of the allowance (LagQuota-spent) and elapsed,
// so that the clock never ends above its value before the move. It also
// returns what is spent of the allowance after the move, which refills by
// LagRefill.
func LagCredit(lag, elapsed, spent time.Duration) (credit, spentAfter time.Duration) {
	credit = max(min(lag, LagPerMove, LagQuota-spent, elapsed), 0)
	return credit, max(spent+credit-LagRefill, 0)
}

// LagSamples is how many round trips a LagEstimator keeps.
const LagSamples = 5

// LagSampleAge is how long a round trip counts in the estimate.
const LagSampleAge = time.Minute

// LagEstimator estimates one player's round-trip time from the latest
// ones the server measured: the median of the last LagSamples, each
// counting for LagSampleAge. The median, rather than a mean, lets one
// slow answer (a retransmitted packet, a page busy for a moment) or one
// quick one go by without moving the estimate. The zero value has no
// samples and estimates 0.
type LagEstimator struct {
	rtt  [LagSamples]time.Duration
	at   [LagSamples]time.Time
	n    int // samples held, up to LagSamples
	next int // where the next one goes
}

// Add records a round trip of rtt measured at at; a negative one is
// ignored.
func (e *LagEstimator) Add(rtt time.Duration, at time.Time) {
	if rtt < 0 {
		return
	}
	e.rtt[e.next], e.at[e.next] = rtt, at
	e.next = (e.next + 1) % LagSamples
	e.n = min(e.n+1, LagSamples)
}

// Estimate returns the estimated round-trip time at now: the median of the
// samples measured within LagSampleAge (the lower of the two middle ones
// when they are even in number), or 0 when there are none.
func (e *LagEstimator) Estimate(now time.Time) time.Duration {
	var fresh [LagSamples]time.Duration
	k := 0
	for i := range e.n {
		if now.Sub(e.at[i]) <= LagSampleAge {
			fresh[k] = e.rtt[i]
			k++
		}
	}
	if k == 0 {
		return 0
	}
	s := fresh[:k]
	slices.Sort(s)
	return s[(k-1)/2]
}
