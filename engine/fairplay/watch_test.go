package fairplay

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// fakeLog is a VoidLog over a list of voids, in the order they commit.
type fakeLog struct {
	voids []Void
	err   error
}

func (f *fakeLog) VoidsSince(_ context.Context, since time.Time) ([]Void, error) {
	if f.err != nil {
		return nil, f.err
	}
	var out []Void
	for _, v := range f.voids {
		if !v.At.Before(since) {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b Void) int { return a.At.Compare(b.At) })
	return out, nil
}

// TestVoidWatch: each void at or after the start is announced once, with
// its own time, including one that commits after a later one (within the
// slack); voids before the start are not; a failed poll is an error and
// the next one catches up.
func TestVoidWatch(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	log := &fakeLog{voids: []Void{{1, t0.Add(-time.Second)}}}
	heard := &announcements{}
	w := newVoidWatch(log, heard, t0)
	poll := func(want ...int64) {
		t.Helper()
		if err := w.poll(ctx); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(*heard, want) {
			t.Fatalf("announced %v, want %v", *heard, want)
		}
	}
	poll()
	log.voids = append(log.voids, Void{2, t0.Add(time.Second)})
	poll(2)
	poll(2)
	log.voids = append(log.voids, Void{3, t0.Add(10 * time.Second)}, Void{4, t0.Add(5 * time.Second)})
	poll(2, 4, 3)                                                   // oldest first
	log.voids = append(log.voids, Void{5, t0.Add(8 * time.Second)}) // committed late
	poll(2, 4, 3, 5)
	log.err = errors.New("database is locked")
	if err := w.poll(ctx); err == nil {
		t.Error("a failed poll reported no error")
	}
	log.err = nil
	log.voids = append(log.voids, Void{6, t0.Add(time.Hour)})
	poll(2, 4, 3, 5, 6)
	if len(w.seen) != 1 {
		t.Errorf("the watch still remembers %v, want only game 6", w.seen)
	}
}

// TestWatchVoidsStops: WatchVoids returns when its context ends.
func TestWatchVoidsStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		WatchVoids(ctx, &fakeLog{}, &announcements{}, time.Now(), time.Millisecond, nil)
		close(done)
	}()
	time.Sleep(5 * time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("WatchVoids did not return after its context ended")
	}
}
