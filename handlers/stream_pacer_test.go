package handlers

import (
	"testing"
	"time"
)

// TestStreamPacerWakesWhenDue: a paced stream is woken once its due time
// has passed, not before, and once until it sets a time again; a stream
// whose time was put off is woken at the new time; the pacer's timer
// stops once nothing is paced.
func TestStreamPacerWakesWhenDue(t *testing.T) {
	p := newStreamPacer(20 * time.Millisecond) // a step of 1 ms
	start := time.Now()
	soon := p.add(start.Add(30 * time.Millisecond))
	later := p.add(start.Add(time.Hour))
	putOff := p.add(start.Add(10 * time.Millisecond))
	p.set(putOff, start.Add(80*time.Millisecond))

	waitWake := func(s *paced, name string) time.Duration {
		t.Helper()
		select {
		case <-s.wake:
			return time.Since(start)
		case <-time.After(5 * time.Second):
			t.Fatalf("%s was not woken", name)
			return 0
		}
	}
	if took := waitWake(soon, "the stream due in 30 ms"); took < 30*time.Millisecond {
		t.Errorf("the stream due in 30 ms was woken after %v", took)
	}
	if took := waitWake(putOff, "the stream put off to 80 ms"); took < 80*time.Millisecond {
		t.Errorf("the stream put off to 80 ms was woken after %v", took)
	}
	if soon.due.Load() != 0 {
		t.Error("a wake left the stream's due time set")
	}

	// Woken once: no second wake until the stream sets a time again.
	time.Sleep(20 * time.Millisecond)
	for _, s := range []*paced{soon, later} {
		select {
		case <-s.wake:
			t.Fatal("a stream was woken with no time due")
		default:
		}
	}
	p.set(soon, time.Now().Add(5*time.Millisecond))
	waitWake(soon, "the stream due again")

	for _, s := range []*paced{soon, later, putOff} {
		p.remove(s)
		p.remove(s) // twice is harmless
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		p.mu.Lock()
		stopped, left := p.timer == nil, len(p.paced)
		p.mu.Unlock()
		if left != 0 {
			t.Fatalf("%d streams still paced after their removal", left)
		}
		if stopped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the pacer's timer still runs with nothing paced")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestStreamPacerRemoveKeepsOthers: removing a stream from the middle
// leaves the others paced, each at its own index.
func TestStreamPacerRemoveKeepsOthers(t *testing.T) {
	p := newStreamPacer(time.Hour)
	far := time.Now().Add(time.Hour)
	var all []*paced
	for range 5 {
		all = append(all, p.add(far))
	}
	p.remove(all[1])
	p.remove(all[4])
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.paced) != 3 {
		t.Fatalf("%d streams paced, want 3", len(p.paced))
	}
	for i, s := range p.paced {
		if s.i != i {
			t.Errorf("stream at %d says it is at %d", i, s.i)
		}
		if s == all[1] || s == all[4] {
			t.Errorf("a removed stream is still paced at %d", i)
		}
	}
	p.timer.Stop()
}

// TestStreamPacerStep: a step is a twentieth of the shortest interval
// paced, from 1 ms to 250 ms.
func TestStreamPacerStep(t *testing.T) {
	for _, c := range []struct{ shortest, step time.Duration }{
		{6 * time.Second, 250 * time.Millisecond},
		{time.Second, 50 * time.Millisecond},
		{20 * time.Millisecond, time.Millisecond},
		{time.Microsecond, time.Millisecond},
	} {
		if got := newStreamPacer(c.shortest).step; got != c.step {
			t.Errorf("step for %v: %v, want %v", c.shortest, got, c.step)
		}
	}
}
