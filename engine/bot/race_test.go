//go:build race

package bot

// raceEnabled is true under the race detector, which slows searches about
// tenfold: the heavier tests use fewer positions then.
const raceEnabled = true
