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
	errors    map[string]int64
}

func newStats() *stats { return &stats{errors: map[string]int64{}} }

// fail counts an error of kind (see errorKind).
func (s *stats) fail(kind string) {
	s.mu.Lock()
	s.errors[kind]++
	s.mu.Unlock()
}

// moved counts a move whose opponent saw it after latency.
func (s *stats) moved(latency time.Duration) {
	s.moves.Add(1)
	s.mu.Lock()
	s.latencies = append(s.latencies, latency)
	s.mu.Unlock()
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
