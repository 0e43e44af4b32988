package app

import (
	"runtime"
	"testing"
)

func TestTuneProcs(t *testing.T) {
	prev := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(prev)

	if got := tuneProcs(func(string) string { return "" }); got != minProcs {
		t.Errorf("tuneProcs on 2 without GOMAXPROCS = %d, want %d", got, minProcs)
	}
	if now := runtime.GOMAXPROCS(0); now != minProcs {
		t.Errorf("GOMAXPROCS after tuneProcs = %d, want %d", now, minProcs)
	}
	// More than minProcs already (a larger host): left alone.
	runtime.GOMAXPROCS(minProcs + 4)
	if got := tuneProcs(func(string) string { return "" }); got != minProcs+4 {
		t.Errorf("tuneProcs on %d = %d, want it unchanged", minProcs+4, got)
	}
	// GOMAXPROCS set: the runtime read it at start; tuneProcs leaves it alone.
	runtime.GOMAXPROCS(2)
	if got := tuneProcs(func(string) string { return "2" }); got != 2 {
		t.Errorf("tuneProcs with GOMAXPROCS=2 = %d, want 2", got)
	}
	if now := runtime.GOMAXPROCS(0); now != 2 {
		t.Errorf("GOMAXPROCS after tuneProcs with GOMAXPROCS set = %d, want 2", now)
	}
}
