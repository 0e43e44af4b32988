package play

import (
	"sync"
	"time"
)

// playerKey is one player at one game.
type playerKey struct{ game, user int64 }

// windowLimiter allows burst actions per key in any window: a sliding
// window of the times of the last actions. The table chat and the voice
// signalling each have one; New sets burst and window.
type windowLimiter struct {
	burst  int
	window time.Duration

	mu   sync.Mutex
	sent map[playerKey][]time.Time
}

// limiterSweepAt is the number of keys above which allow forgets idle ones.
const limiterSweepAt = 1024

// allow reports whether key may act at now, and if so counts it.
func (l *windowLimiter) allow(key playerKey, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sent == nil {
		l.sent = make(map[playerKey][]time.Time)
	}
	if len(l.sent) > limiterSweepAt {
		for k, ts := range l.sent {
			if len(ts) == 0 || now.Sub(ts[len(ts)-1]) >= l.window {
				delete(l.sent, k)
			}
		}
	}
	recent := l.sent[key]
	for len(recent) > 0 && now.Sub(recent[0]) >= l.window {
		recent = recent[1:]
	}
	if len(recent) >= l.burst {
		l.sent[key] = recent
		return false
	}
	l.sent[key] = append(recent, now)
	return true
}
