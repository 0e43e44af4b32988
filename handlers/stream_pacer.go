package handlers

import (
	"sync"
	"sync/atomic"
	"time"
)

// A game's stream wakes between events for its clock update and, a
// player's, for a ping once it has been quiet (game_stream.go). With a
// ticker and a timer of its own for each, 5,000 games held some 15,000
// timers in the runtime's heaps, and every wake of a stream for a move
// took its timers out of a heap and put them back (a timer's channel is in
// the heap only while a goroutine waits on it); the runtime's walks of its
// heaps for the timers so moved or stopped (timers.adjust, timers.check)
// were 2.5 to 3.4% of the server's CPU. A streamPacer is one timer for
// all of a Handler's game streams instead, and for its Watch streams
// (watch.go), which wake as often for their heartbeats: every step it
// looks at each stream's due time, one field, and wakes those whose time
// has come. A stream is woken between its due time and a step later.

// streamPacer wakes the paced streams whose due time has passed.
type streamPacer struct {
	mu     sync.Mutex
	paced  []*paced
	step   time.Duration
	timer  *time.Timer // the next look, nil while nothing is paced
	origin time.Time   // due times count from it, on the monotonic clock
}

// paced is one stream's place in a streamPacer.
type paced struct {
	// wake has a value once the stream's due time has passed.
	wake chan struct{}
	// due is when the stream wants waking, from the pacer's origin; 0
	// once the pacer woke it, until the stream says when next (set).
	due atomic.Int64
	// i is the stream's index in the pacer's paced, -1 once removed.
	i int
}

// pacerSteps is how many steps of a pacer fit in the shortest interval
// it paces, and maxPacerStep the longest step: with the game streams'
// defaults (a clock update after 10 s, a ping after 6 s) a look every
// 250 ms, some hundred microseconds for 10,000 streams.
const (
	pacerSteps   = 20
	maxPacerStep = 250 * time.Millisecond
)

// newStreamPacer paces streams whose shortest interval is shortest.
func newStreamPacer(shortest time.Duration) *streamPacer {
	step := min(max(shortest/pacerSteps, time.Millisecond), maxPacerStep)
	return &streamPacer{step: step, origin: time.Now()}
}

// add paces a stream first due at due, until remove.
func (p *streamPacer) add(due time.Time) *paced {
	s := &paced{wake: make(chan struct{}, 1)}
	p.set(s, due)
	p.mu.Lock()
	defer p.mu.Unlock()
	s.i = len(p.paced)
	p.paced = append(p.paced, s)
	if p.timer == nil {
		p.timer = time.AfterFunc(p.step, p.run)
	}
	return s
}

// remove stops pacing s.
func (p *streamPacer) remove(s *paced) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.i < 0 {
		return
	}
	last := p.paced[len(p.paced)-1]
	p.paced[s.i], last.i = last, s.i
	p.paced[len(p.paced)-1] = nil
	p.paced = p.paced[:len(p.paced)-1]
	s.i = -1
}

// set says when s is next due: after every wake, since a wake clears it,
// and whenever the stream puts its time off.
func (p *streamPacer) set(s *paced, due time.Time) {
	s.due.Store(max(int64(due.Sub(p.origin)), 1))
}

// run wakes the streams that are due, and looks again a step later if any
// stream is still paced.
func (p *streamPacer) run() {
	now := int64(time.Since(p.origin))
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.paced {
		// A stream that sets a new time meanwhile keeps it.
		if due := s.due.Load(); due != 0 && due <= now && s.due.CompareAndSwap(due, 0) {
			select {
			case s.wake <- struct{}{}:
			default: // woken already
			}
		}
	}
	if len(p.paced) == 0 {
		p.timer = nil
		p.paced = nil // a slice keeps the room it grew to
		return
	}
	p.timer.Reset(p.step)
}
