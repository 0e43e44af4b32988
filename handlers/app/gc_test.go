package app

import (
	"runtime/debug"
	"testing"
)

// TestGCPercent: the server logs the collector's GOGC in effect and
// leaves it as it is.
func TestGCPercent(t *testing.T) {
	prev := debug.SetGCPercent(150)
	defer debug.SetGCPercent(prev)
	if got := gcPercent(); got != 150 {
		t.Errorf("gcPercent() = %d, want the percent in effect, 150", got)
	}
	if now := debug.SetGCPercent(prev); now != 150 {
		t.Errorf("GC percent after gcPercent = %d, want it unchanged, 150", now)
	}
}
