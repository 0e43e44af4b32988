package limit

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func TestWindow(t *testing.T) {
	w := Window[string]{Burst: 5, Period: 10 * time.Second}
	for i := range 5 {
		if !w.Allow("a", t0.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("action %d refused", i+1)
		}
	}
	if w.Allow("a", t0.Add(5*time.Second)) {
		t.Error("6th action in the period allowed")
	}
	if !w.Allow("b", t0.Add(5*time.Second)) {
		t.Error("another key is limited too")
	}
	if w.Allow("a", t0.Add(10*time.Second-time.Millisecond)) {
		t.Error("allowed before the first action left the window")
	}
	if !w.Allow("a", t0.Add(10*time.Second)) {
		t.Error("refused once the first action left the window")
	}
	if w.Allow("a", t0.Add(10*time.Second+500*time.Millisecond)) {
		t.Error("allowed while 5 actions are in the window")
	}
}

// TestWindowRefusedNotCounted: refusals do not keep a key shut out; the
// window moves on with the allowed actions only.
func TestWindowRefusedNotCounted(t *testing.T) {
	w := Window[int]{Burst: 1, Period: time.Second}
	if !w.Allow(1, t0) {
		t.Fatal("first action refused")
	}
	for i := range 10 {
		if w.Allow(1, t0.Add(time.Duration(i)*50*time.Millisecond)) {
			t.Fatalf("action %d in the period allowed", i+2)
		}
	}
	if !w.Allow(1, t0.Add(time.Second)) {
		t.Error("refused a period after the one allowed action")
	}
}

// TestWindowSweep: past sweepAt keys, the idle ones are forgotten and
// the busy ones kept.
func TestWindowSweep(t *testing.T) {
	w := Window[int]{Burst: 1, Period: time.Second}
	for k := range sweepAt + 1 {
		w.Allow(k, t0)
	}
	w.Allow(-1, t0.Add(2*time.Second)) // the others are idle by now
	if got := w.keys(); got != 1 {
		t.Errorf("%d keys after the sweep, want 1", got)
	}
	if w.Allow(-1, t0.Add(2*time.Second)) {
		t.Error("the busy key was forgotten by the sweep")
	}
}
