package app

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	prev := debug.SetGCPercent(150)
	defer debug.SetGCPercent(prev)

	if got := tuneGC(func(string) string { return "" }); got != defaultGCPercent {
		t.Errorf("tuneGC without GOGC = %d, want %d", got, defaultGCPercent)
	}
	if now := debug.SetGCPercent(150); now != defaultGCPercent {
		t.Errorf("GC percent after tuneGC without GOGC = %d, want %d", now, defaultGCPercent)
	}
	// GOGC set: the runtime read it at start; tuneGC leaves it alone.
	if got := tuneGC(func(string) string { return "150" }); got != 150 {
		t.Errorf("tuneGC with GOGC = %d, want the percent in effect, 150", got)
	}
	if now := debug.SetGCPercent(150); now != 150 {
		t.Errorf("GC percent after tuneGC with GOGC = %d, want it unchanged, 150", now)
	}
}
