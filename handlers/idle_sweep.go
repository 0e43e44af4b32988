package handlers

import (
	"sync"
	"time"
)

// The caches that remember members and addresses for a while (the rate
// limits, the members online) sweep out what has aged past use. Swept
// only when something new came in, they kept a busy hour's entries after
// the site went quiet, for as long as it stayed quiet: some 7 MB after a
// 5,000-game soak. A sweepTimer sweeps them every so often instead, for
// as long as they hold anything, and a cache left empty makes its map
// anew: a Go map keeps the room it grew to, however few it holds.

// sweepTimer calls sweep every period while sweep says something is left
// to sweep later. arm starts it after an entry went in; armed or not, a
// timer is waiting or a sweep is under way whenever the cache holds
// anything. The zero value is not ready: use newSweepTimer.
type sweepTimer struct {
	period time.Duration
	// sweep drops the aged entries and reports whether any are left. It
	// takes the cache's own lock: arm must be called without it, after
	// the entry went in.
	sweep func() (left bool)

	// mu is held across a sweep, so that an arm waits for the sweep to
	// decide whether another is due: an entry added meanwhile either was
	// seen by the sweep (left) or arms the timer again once it is done.
	mu    sync.Mutex
	timer *time.Timer // nil while nothing is left to sweep
}

func newSweepTimer(period time.Duration, sweep func() (left bool)) *sweepTimer {
	return &sweepTimer{period: period, sweep: sweep}
}

// arm makes sure a sweep comes within period.
func (s *sweepTimer) arm() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer == nil {
		s.timer = time.AfterFunc(s.period, s.run)
	}
}

// run sweeps, and sweeps again after period if anything is left.
func (s *sweepTimer) run() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sweep() {
		s.timer.Reset(s.period)
	} else {
		s.timer = nil
	}
}
