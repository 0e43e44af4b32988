package app

import "runtime/debug"

// defaultGCPercent paces the garbage collector of `satranc serve` unless
// the GOGC environment variable sets it: a collection starts once the heap
// has grown by this percentage of what the last one left live. At 50 the
// 5,000-game soak ran in 0.36 to 0.38 GB of RSS against 0.70 GB at 200,
// at a p99 of 67.0 ms against 75.8 in ten-minute soaks one after the
// other, for 487 s of CPU against 478 (docs/performance.md, "The
// collector's pace"): the server allocates little enough that the more
// frequent cycles cost it about as much as the larger heap's. A host
// short of CPU rather than memory may set GOGC=200. GOMEMLIMIT caps the
// heap in either case.
const defaultGCPercent = 50

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
