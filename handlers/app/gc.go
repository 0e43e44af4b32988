package app

import "runtime/debug"

// defaultGCPercent paces the garbage collector of `satranc serve` unless
// the GOGC environment variable sets it: a collection starts once the heap
// has grown by this percentage of what the last one left live. At Go's
// own default, 100, the 5,000-game soak collects twice as often, and more
// of its ten-second windows meet a mark: its p99 came out at 27.6 to 78.6
// ms in three runs against 21.5 to 29.1 in three at 200, for a peak RSS
// of 0.66 to 0.70 GB instead of 0.84 to 0.90 (docs/performance.md, "The
// collector's pace"). GOMEMLIMIT caps the heap in either case.
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
