package app

import "runtime"

// minProcs is the fewest processors (GOMAXPROCS, the goroutines Go runs
// at once) `satranc serve` runs unless the GOMAXPROCS environment
// variable sets them, however few cores the host has. Go's default is one
// a core, and on two cores a goroutine that keeps one busy for a while
// (the collector's mark worker, a long render) leaves every move, event
// and page of the moment to queue behind the other, for up to the 10 ms
// after which Go preempts it. With more processors than cores, the kernel
// shares the cores between their threads, in slices of a few
// milliseconds. At 10,000 games on two cores, with the load driver on the
// same cores, the p99 of a move's way to the opponent was 144 to 240 ms
// in four five-minute runs at 8 against 538 and 651 ms in two at 2, for
// some 5% more CPU (docs/performance.md, "The processors").
const minProcs = 8

// tuneProcs raises GOMAXPROCS to minProcs unless getenv("GOMAXPROCS") is
// set or Go's default is larger already, and returns the number in
// effect. Once set, Go no longer follows a change of the container's CPU
// limit while the process runs; a restart does.
func tuneProcs(getenv func(string) string) int {
	procs := runtime.GOMAXPROCS(0)
	if getenv("GOMAXPROCS") != "" || procs >= minProcs {
		return procs
	}
	runtime.GOMAXPROCS(minProcs)
	return minProcs
}
