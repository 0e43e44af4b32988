// Package limit refuses floods. Window counts actions in a sliding
// window: the table chat and the voice signalling each keep one per
// player and game. Slots counts what each key holds at once: the event
// streams keep one per member and one per client address.
//
// It is pure bookkeeping: the caller passes the time of every action, so
// tests step through a window without sleeping.
package limit

import (
	"sync"
	"time"
)

// Window allows at most Burst actions per key in any Period: a sliding
// window of the times of each key's last actions. Set Burst and Period
// before the first Allow; a Window is safe for concurrent use and must
// not be copied after its first use.
type Window[K comparable] struct {
	// Burst is the number of actions allowed in any Period.
	Burst int
	// Period is the length of the window.
	Period time.Duration

	mu   sync.Mutex
	sent map[K][]time.Time
}

// sweepAt is the number of keys above which Allow forgets idle ones, so
// that the players of finished games do not stay in memory.
const sweepAt = 1024

// Allow reports whether key may act at now, and if so counts the action.
// A refused action is not counted: a flood does not push the window on.
func (w *Window[K]) Allow(key K, now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sent == nil {
		w.sent = make(map[K][]time.Time)
	}
	if len(w.sent) > sweepAt {
		for k, ts := range w.sent {
			if len(ts) == 0 || now.Sub(ts[len(ts)-1]) >= w.Period {
				delete(w.sent, k)
			}
		}
	}
	recent := w.sent[key]
	for len(recent) > 0 && now.Sub(recent[0]) >= w.Period {
		recent = recent[1:]
	}
	if len(recent) >= w.Burst {
		w.sent[key] = recent
		return false
	}
	w.sent[key] = append(recent, now)
	return true
}

// keys returns the number of keys remembered, for the tests of the sweep.
func (w *Window[K]) keys() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.sent)
}
