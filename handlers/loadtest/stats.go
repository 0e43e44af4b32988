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
type stats struct {
	moves     atomic.Int64
	flagged   atomic.Int64 // games the server ended first (a flag): not errors
	mu        sync.Mutex
	latencies []time.Duration
	// warm and steady hold the latencies of the moves sent before and
	// after warmUntil (zero: none kept apart), the games' start and the
	// steady state; window those since the last progress report
	// (takeWindow).
	warmUntil    time.Time
	warm, steady []time.Duration
	window       []time.Duration
	errors       map[string]int64
	// deltas and panels are the sizes in bytes of the move events the
	// streams received after their first: moves as deltas
	// (views.EventMove) and whole panels (views.EventGame).
	deltas, panels []int
}

func newStats() *stats { return &stats{errors: map[string]int64{}} }

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
	s.latencies = append(s.latencies, latency)
	s.window = append(s.window, latency)
	switch {
	case s.warmUntil.IsZero():
	case sent.Before(s.warmUntil):
		s.warm = append(s.warm, latency)
	default:
		s.steady = append(s.steady, latency)
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
// sorted, and starts a new window.
func (s *stats) takeWindow() []time.Duration {
	s.mu.Lock()
	w := s.window
	s.window = nil
	s.mu.Unlock()
	slices.Sort(w)
	return w
}

// phases returns sorted copies of the latencies of the moves sent during
// the warm-up and after it.
func (s *stats) phases() (warm, steady []time.Duration) {
	s.mu.Lock()
	warm, steady = slices.Clone(s.warm), slices.Clone(s.steady)
	s.mu.Unlock()
	slices.Sort(warm)
	slices.Sort(steady)
	return warm, steady
}

// received counts a move event of size bytes that a stream received after
// its first event: a delta, or a whole panel.
func (s *stats) received(size int, delta bool) {
	s.mu.Lock()
	if delta {
		s.deltas = append(s.deltas, size)
	} else {
		s.panels = append(s.panels, size)
	}
	s.mu.Unlock()
}

// bytesSummary describes the sizes of the move events received.
func (s *stats) bytesSummary() string {
	s.mu.Lock()
	deltas, panels := slices.Sorted(slices.Values(s.deltas)), slices.Sorted(slices.Values(s.panels))
	s.mu.Unlock()
	all := slices.Sorted(slices.Values(append(slices.Clone(deltas), panels...)))
	size := func(sorted []int) string {
		if len(sorted) == 0 {
			return "none"
		}
		return fmt.Sprintf("%d events, median %d B, p99 %d B, max %d B", len(sorted),
			sorted[len(sorted)/2], sorted[min(len(sorted)*99/100, len(sorted)-1)], sorted[len(sorted)-1])
	}
	return fmt.Sprintf("all %s; deltas %s; whole panels %s", size(all), size(deltas), size(panels))
}

// snapshot returns a sorted copy of the latencies and a copy of the errors.
func (s *stats) snapshot() ([]time.Duration, map[string]int64) {
	s.mu.Lock()
	lat := slices.Clone(s.latencies)
	errs := maps.Clone(s.errors)
	s.mu.Unlock()
	slices.Sort(lat)
	return lat, errs
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
