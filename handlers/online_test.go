package handlers

import (
	"testing"
	"time"
)

func TestOnlineMembers(t *testing.T) {
	o := newOnlineMembers()
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	o.saw(1, start)
	o.saw(2, start.Add(time.Minute))
	o.saw(1, start.Add(2*time.Minute)) // the same member again
	if n := o.count(start.Add(2 * time.Minute)); n != 2 {
		t.Errorf("count = %d, want 2", n)
	}
	// Member 2 was last seen at 12:01, member 1 at 12:02.
	if n := o.count(start.Add(time.Minute + onlineWindow + time.Second)); n != 1 {
		t.Errorf("count after member 2's window = %d, want 1", n)
	}
	if n := o.count(start.Add(2*time.Minute + onlineWindow + time.Second)); n != 0 {
		t.Errorf("count after both windows = %d, want 0", n)
	}
}

// TestOnlineMembersBounded: members who left are dropped as others come,
// without anyone reading the count.
func TestOnlineMembersBounded(t *testing.T) {
	o := newOnlineMembers()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for id := int64(1); id <= 100_000; id++ {
		now = now.Add(10 * time.Millisecond) // 1,000 seconds in all
		o.saw(id, now)
	}
	// 5 minutes hold 30,000 members at this rate; the map may hold up to
	// twice what the last sweep left.
	o.mu.Lock()
	n := len(o.seen)
	o.mu.Unlock()
	if n > 2*30_001+1 {
		t.Errorf("%d members held, want at most about 60,000", n)
	}
	if got := o.count(now); got != 30_001 {
		t.Errorf("count = %d, want 30,001", got)
	}
}
