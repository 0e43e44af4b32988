package limit

import (
	"sync"
	"testing"
)

func TestSlots(t *testing.T) {
	s := Slots[string]{Max: 2}
	for i := range 2 {
		if !s.Take("a") {
			t.Fatalf("slot %d refused", i+1)
		}
	}
	if s.Take("a") {
		t.Error("third slot of a taken with Max 2")
	}
	if got := s.Held("a"); got != 2 {
		t.Errorf("Held(a) = %d after a refusal, want 2", got)
	}
	if !s.Take("b") {
		t.Error("another key is capped too")
	}
	s.Give("a")
	if !s.Take("a") {
		t.Error("refused after a slot was given back")
	}
	s.Give("a")
	s.Give("a")
	s.Give("b")
	if got := s.keys(); got != 0 {
		t.Errorf("%d keys remembered with no slot held, want 0", got)
	}
}

// TestSlotsNoCap: Max 0 caps nothing but still counts.
func TestSlotsNoCap(t *testing.T) {
	var s Slots[int]
	for i := range 1000 {
		if !s.Take(1) {
			t.Fatalf("slot %d refused without a cap", i+1)
		}
	}
	if got := s.Held(1); got != 1000 {
		t.Errorf("Held = %d, want 1000", got)
	}
}

// TestSlotsGiveWithoutTake: giving back a slot never taken is a bug in
// the caller, which panics rather than corrupt the counts.
func TestSlotsGiveWithoutTake(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Give without Take did not panic")
		}
	}()
	var s Slots[int]
	s.Give(1)
}

// TestSlotsConcurrent: however many take at once, no more than Max hold
// a slot; run with -race.
func TestSlotsConcurrent(t *testing.T) {
	s := Slots[int]{Max: 5}
	var mu sync.Mutex
	var wg sync.WaitGroup
	taken := 0
	for range 50 {
		wg.Go(func() {
			if s.Take(0) {
				mu.Lock()
				taken++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if taken != 5 || s.Held(0) != 5 {
		t.Errorf("%d slots taken, %d held, want 5", taken, s.Held(0))
	}
}
