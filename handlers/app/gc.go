package app

import "runtime/debug"

// defaultGCPercent paces the garbage collector of `satranc serve` unless
// the GOGC environment variable sets it: a collection starts once the heap
// has grown by this percentage of what the last one left live. Go's own
// default, 100, collected about once a second at 5,000 games and its
// marking took one of the two cores from the requests often enough to
// triple the move latency's p99 (docs/performance.md, "Load"); 200
// collects half as often for about half as much memory again at the peak.
// GOMEMLIMIT caps the heap in either case.
const defaultGCPercent = 200

// tuneGC applies defaultGCPercent unless getenv("GOGC") is set, and
// returns the percentage in effect.
func tuneGC(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		percent := debug.SetGCPercent(-1) // read it: SetGCPercent returns the previous one
		debug.SetGCPercent(percent)
		return percent
	}
	debug.SetGCPercent(defaultGCPercent)
	return defaultGCPercent
}
