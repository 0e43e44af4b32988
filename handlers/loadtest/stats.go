package loadtest

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// stats collects the measurements of a run from every game.
//
// A run of ten minutes at 5,000 games times some 600,000 moves. Sorting
// them all again for every progress report took the driver tens of
// milliseconds of a core every ten seconds, more as the run went on, on
// the cores the server shares: the moves arrive in windows (takeWindow),
// each window is sorted alone and merged into the sorted run, in time
// linear in the run's length.
type stats struct {
	moves   atomic.Int64
	flagged atomic.Int64 // games the server ended first (a flag): not errors
	mu      sync.Mutex   // guards the fields up to folded
	// warmUntil parts the moves sent before it, the games' start, from
	// those sent after, the steady state (zero: none kept apart); window
	// holds the latencies of the moves since the last takeWindow, and
	// newWarm and newSteady the same moves by phase.
	warmUntil          time.Time
	window             []time.Duration
	newWarm, newSteady []time.Duration
	errors             map[string]int64
	// deltas and panels count the sizes in bytes of the move events the
	// streams received after their first: moves as deltas
	// (views.EventMove) and whole panels (views.EventGame).
	deltas, panels sizeCounts

	// folded holds the run's latencies up to the last takeWindow, sorted:
	// the whole run and its two phases. Each fold makes new slices, so
	// that those handed out never change.
	foldMu sync.Mutex
	folded struct{ all, warm, steady []time.Duration }
}

func newStats() *stats {
	return &stats{errors: map[string]int64{}, deltas: sizeCounts{}, panels: sizeCounts{}}
}

// fail counts an error of kind (see errorKind).
func (s *stats) fail(kind string) {
	s.mu.Lock()
	s.errors[kind]++
	s.mu.Unlock()
}

// moved counts a move sent at sent whose opponent saw it after latency.
func (s *stats) moved(sent time.Time, latency time.Duration) {
	s.moves.Add(1)
	s.mu.Lock()
	s.window = append(s.window, latency)
	switch {
	case s.warmUntil.IsZero():
	case sent.Before(s.warmUntil):
		s.newWarm = append(s.newWarm, latency)
	default:
		s.newSteady = append(s.newSteady, latency)
	}
	s.mu.Unlock()
}

// setWarmUntil keeps the moves sent from t on apart, as the steady state.
func (s *stats) setWarmUntil(t time.Time) {
	s.mu.Lock()
	s.warmUntil = t
	s.mu.Unlock()
}

// takeWindow returns the latencies counted since it was last called,
// sorted, folds them into the run (run) and starts a new window. The
// sorting and merging are done outside the lock that every move takes.
func (s *stats) takeWindow() []time.Duration {
	s.mu.Lock()
	window, warm, steady := s.window, s.newWarm, s.newSteady
	s.window, s.newWarm, s.newSteady = nil, nil, nil
	s.mu.Unlock()
	slices.Sort(window)
	slices.Sort(warm)
	slices.Sort(steady)
	s.foldMu.Lock()
	defer s.foldMu.Unlock()
	s.folded.all = mergeSorted(s.folded.all, window)
	s.folded.warm = mergeSorted(s.folded.warm, warm)
	s.folded.steady = mergeSorted(s.folded.steady, steady)
	return window
}

// run returns the latencies of the whole run and of its two phases, the
// moves sent during the warm-up and after it, sorted, as of the last
// takeWindow. The slices are not changed afterwards.
func (s *stats) run() (all, warm, steady []time.Duration) {
	s.foldMu.Lock()
	defer s.foldMu.Unlock()
	return s.folded.all, s.folded.warm, s.folded.steady
}

// mergeSorted returns a new slice of the sorted a and b merged, sorted.
func mergeSorted(a, b []time.Duration) []time.Duration {
	if len(b) == 0 {
		return a
	}
	out := make([]time.Duration, len(a)+len(b))
	i, j := 0, 0
	for k := range out {
		if j == len(b) || i < len(a) && a[i] <= b[j] {
			out[k], i = a[i], i+1
		} else {
			out[k], j = b[j], j+1
		}
	}
	return out
}

// received counts a move event of size bytes that a stream received after
// its first event: a delta, or a whole panel.
func (s *stats) received(size int, delta bool) {
	s.mu.Lock()
	if delta {
		s.deltas[size]++
	} else {
		s.panels[size]++
	}
	s.mu.Unlock()
}

// bytesSummary describes the sizes of the move events received.
func (s *stats) bytesSummary() string {
	s.mu.Lock()
	deltas, panels := maps.Clone(s.deltas), maps.Clone(s.panels)
	s.mu.Unlock()
	all := maps.Clone(deltas)
	for size, n := range panels {
		all[size] += n
	}
	return fmt.Sprintf("all %s; deltas %s; whole panels %s", all.summary(), deltas.summary(), panels.summary())
}

// sizeCounts counts events by their size in bytes: a run's million events
// come in a few hundred sizes.
type sizeCounts map[int]int

// summary gives the count of the events, and the median, p99 and largest
// of their sizes, as ranks ⌊p·n⌋ (latencySummary's percentiles).
func (c sizeCounts) summary() string {
	n := 0
	for _, k := range c {
		n += k
	}
	if n == 0 {
		return "none"
	}
	sizes := slices.Sorted(maps.Keys(c))
	at := func(rank int) int { // the size of the event at rank in size order
		for _, size := range sizes {
			if rank < c[size] {
				return size
			}
			rank -= c[size]
		}
		return sizes[len(sizes)-1]
	}
	return fmt.Sprintf("%d events, median %d B, p99 %d B, max %d B", n, at(n/2), at(min(n*99/100, n-1)), sizes[len(sizes)-1])
}

// errorCounts returns a copy of the errors counted by kind.
func (s *stats) errorCounts() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.errors)
}

// latencySummary formats p50, p95, p99 and max of sorted latencies. A
// percentile p is the latency at index ⌊p·n⌋ (the nearest rank above), so
// that p99 of a hundred moves is their slowest, never an interpolation.
func latencySummary(sorted []time.Duration) string {
	if len(sorted) == 0 {
		return "p50=- p95=- p99=- max=-"
	}
	r := func(d time.Duration) string { return d.Round(10 * time.Microsecond).String() }
	return fmt.Sprintf("p50=%s p95=%s p99=%s max=%s",
		r(percentile(sorted, .50)), r(percentile(sorted, .95)), r(percentile(sorted, .99)), r(sorted[len(sorted)-1]))
}

// percentile returns the latency at index ⌊p·n⌋ of sorted, which must not
// be empty.
func percentile(sorted []time.Duration, p float64) time.Duration {
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}

// sumErrors returns the number of errors of every kind.
func sumErrors(errs map[string]int64) int64 {
	var n int64
	for _, c := range errs {
		n += c
	}
	return n
}
