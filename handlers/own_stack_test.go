package handlers

import (
	"errors"
	"testing"
)

// TestOwnStackRun: run returns the work's error, and a call allocates
// nothing once the work is made, so that a stream's wake gives the
// collector no reason to make the stream's goroutine help it.
func TestOwnStackRun(t *testing.T) {
	s := newOwnStack()
	errWork := errors.New("the work failed")
	if err := s.run(func() error { return errWork }); err != errWork {
		t.Fatalf("run = %v, want the work's error", err)
	}
	ran := 0
	work := func() error { ran++; return nil }
	if allocs := testing.AllocsPerRun(200, func() {
		if err := s.run(work); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("a run allocates %v times, want 0", allocs)
	}
	if ran != 201 { // AllocsPerRun runs it once more to warm up
		t.Errorf("the work ran %d times, want 201", ran)
	}
}
