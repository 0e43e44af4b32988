package handlers

import (
	"sync"
	"time"
)

// An event gets its stream's writeTimeout to reach the client: a client
// that stops reading fills the connection's buffers, and a write blocked
// for good would hold the stream's goroutine for good. A stream taken out
// of net/http (sse_detach.go) sets its connection's deadline before each
// event, which costs a field in the poller. Through net/http's HTTP/2
// server, though, every deadline set or lifted is a message to the
// connection's goroutine and a timer made or stopped: two of the three
// things that goroutine did for each event, with the wake-ups they cost.
// The streams net/http serves are watched instead: a write notes when it
// began (sseWriter.writing), and one timer for all of them, every
// stallCheck, ends the writes that have run past their timeout
// (sseWriter.cut), which fails a blocked write at once. A stalled write
// is then cut between its timeout and stallCheck later. The same check
// gives a write in progress when its stream's context ended endGrace to
// finish (sseWriter.endedMidWrite): a shutdown or a client gone ends it
// within stallCheck and endGrace.

// stallCheck is how often the stalled writes are looked for.
const stallCheck = time.Second

// stallWatch is the set of streams whose writes are watched.
type stallWatch struct {
	mu      sync.Mutex
	writers map[*sseWriter]struct{}
	// timer is the next check, nil while no stream is watched.
	timer *time.Timer
	check time.Duration
}

// stalls watches the streams of every Handler: a check looks at each
// stream's one field, some microseconds for thousands.
var stalls = newStallWatch(stallCheck)

func newStallWatch(check time.Duration) *stallWatch {
	return &stallWatch{writers: map[*sseWriter]struct{}{}, check: check}
}

// add watches s's writes until remove.
func (w *stallWatch) add(s *sseWriter) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writers[s] = struct{}{}
	if w.timer == nil {
		w.timer = time.AfterFunc(w.check, w.run)
	}
}

// remove stops watching s.
func (w *stallWatch) remove(s *sseWriter) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.writers, s)
}

// run ends the stalled writes and those of ended streams, and sets the
// next check, if any stream is still watched.
func (w *stallWatch) run() {
	now := time.Now()
	var stalled, ended []*sseWriter
	w.mu.Lock()
	for s := range w.writers {
		switch {
		case s.stalled(now):
			stalled = append(stalled, s)
		case s.endedMidWrite():
			ended = append(ended, s)
		}
	}
	if len(w.writers) == 0 {
		w.timer = nil
		// An empty map keeps the room it grew to: a new one does not.
		w.writers = map[*sseWriter]struct{}{}
	} else {
		w.timer.Reset(w.check)
	}
	w.mu.Unlock()
	for _, s := range stalled {
		s.cut()
	}
	for _, s := range ended {
		s.end()
	}
}
