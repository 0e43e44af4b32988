package handlers

import (
	"sync"
	"time"
)

// onlineWindow is how long a member counts as online after their last
// request. A player at the board keeps being seen: the page answers the
// stream's lag pings with a request every DefaultLagPing or so.
const onlineWindow = 5 * time.Minute

// onlineMembers counts the members seen on this node within onlineWindow,
// for the home page's "players online". It holds one time per member seen
// in the window: old entries are dropped as the count is read, whenever
// the map has doubled since the last sweep, and by a timer while any are
// held (idle_sweep.go).
type onlineMembers struct {
	sweeps *sweepTimer

	mu    sync.Mutex
	seen  map[int64]time.Time
	swept int // len(seen) after the last sweep
}

func newOnlineMembers() *onlineMembers {
	o := &onlineMembers{seen: map[int64]time.Time{}}
	o.sweeps = newSweepTimer(onlineWindow, func() bool { return o.count(time.Now()) > 0 })
	return o
}

// saw records a request by member id at now.
func (o *onlineMembers) saw(id int64, now time.Time) {
	if o.record(id, now) {
		o.sweeps.arm()
	}
}

// record records a request by member id at now, as saw does, and reports
// whether id was not held.
func (o *onlineMembers) record(id int64, now time.Time) (added bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, held := o.seen[id]
	o.seen[id] = now
	if len(o.seen) > 2*max(o.swept, 512) {
		o.sweep(now)
	}
	return !held
}

// count returns how many members were seen within onlineWindow of now.
func (o *onlineMembers) count(now time.Time) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sweep(now)
	return len(o.seen)
}

// sweep drops the members last seen before the window; o.mu is held.
func (o *onlineMembers) sweep(now time.Time) {
	for id, t := range o.seen {
		if now.Sub(t) > onlineWindow {
			delete(o.seen, id)
		}
	}
	if len(o.seen) == 0 {
		o.seen = map[int64]time.Time{} // without the room the old one grew to
	}
	o.swept = len(o.seen)
}
