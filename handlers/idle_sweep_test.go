package handlers

import (
	"sync"
	"testing"
	"time"
)

// TestSweepTimer: a sweep comes within the period of an arm, again while
// something is left, and not once nothing is; an arm after that starts
// the sweeps again.
func TestSweepTimer(t *testing.T) {
	var mu sync.Mutex
	left, sweeps := 2, 0
	done := make(chan struct{}, 8)
	s := newSweepTimer(5*time.Millisecond, func() bool {
		mu.Lock()
		defer mu.Unlock()
		sweeps++
		left = max(left-1, 0)
		done <- struct{}{}
		return left > 0
	})
	s.arm()
	s.arm() // armed already: no second timer
	for range 2 {
		<-done
	}
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	if sweeps != 2 {
		t.Errorf("%d sweeps for 2 entries, want 2", sweeps)
	}
	left = 1
	mu.Unlock()
	s.mu.Lock()
	stopped := s.timer == nil
	s.mu.Unlock()
	if !stopped {
		t.Error("the timer is still armed with nothing left")
	}
	s.arm()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if sweeps != 3 {
		t.Errorf("%d sweeps after arming again, want 3", sweeps)
	}
}

// TestSweepTimerRace: entries added while sweeps run are always swept in
// the end (run under -race).
func TestSweepTimerRace(t *testing.T) {
	var mu sync.Mutex
	held := 0
	s := newSweepTimer(time.Millisecond, func() bool {
		mu.Lock()
		defer mu.Unlock()
		held = 0
		return false
	})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				mu.Lock()
				held++
				mu.Unlock()
				s.arm()
				time.Sleep(50 * time.Microsecond)
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := held
		mu.Unlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d entries never swept", n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestLimiterSweepsWhenQuiet: the limiter's timer sweep (sweepIdle)
// forgets idle clients with no new client coming, and leaves an empty
// map in place of the one they filled.
func TestLimiterSweepsWhenQuiet(t *testing.T) {
	a := newAddrLimiter(RateLimit{Every: time.Second, Burst: 1})
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	a.now = func() time.Time { return now }
	allowClients(t, a, 3)
	if left := a.sweepIdle(); !left {
		t.Fatal("the sweep forgot clients still in use")
	}
	now = now.Add(a.idle())
	if left := a.sweepIdle(); left {
		t.Errorf("%d clients left after they went idle, want none", len(a.clients))
	}
	a.sweeps.mu.Lock()
	armed := a.sweeps.timer != nil
	a.sweeps.mu.Unlock()
	if !armed {
		t.Error("no sweep armed after new clients came")
	}
}

// TestOnlineMembersEmptied: once every member's window is over, the map
// of members seen is a new one.
func TestOnlineMembersEmptied(t *testing.T) {
	o := newOnlineMembers()
	now := time.Now()
	for id := int64(1); id <= 1000; id++ {
		o.saw(id, now)
	}
	old := o.seen
	if n := o.count(now.Add(onlineWindow + time.Second)); n != 0 {
		t.Fatalf("count = %d after every window, want 0", n)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(old) != 0 || len(o.seen) != 0 {
		t.Fatalf("members left: %d, %d", len(old), len(o.seen))
	}
	o.seen[1] = now // the new map is a distinct one: the old stays empty
	if len(old) != 0 {
		t.Error("the emptied map was kept")
	}
}
