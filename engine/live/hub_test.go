package live

import (
	"sync"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestPublishReachesTopicOnly(t *testing.T) {
	h := New[int64, string](4)
	a, b, other := h.Subscribe(1), h.Subscribe(1), h.Subscribe(2)
	defer a.Close()
	defer b.Close()
	defer other.Close()

	h.Publish(1, "e4")
	for _, s := range []*Subscription[int64, string]{a, b} {
		if got := <-s.C(); got != "e4" {
			t.Errorf("received %q, want e4", got)
		}
	}
	select {
	case e := <-other.C():
		t.Errorf("topic 2 received %q", e)
	default:
	}
	if n := h.Subscribers(1); n != 2 {
		t.Errorf("Subscribers(1) = %d, want 2", n)
	}
}

func TestFullSubscriberIsDropped(t *testing.T) {
	h := New[string, int](2)
	slow, fast := h.Subscribe("g"), h.Subscribe("g")
	defer fast.Close()
	for i := range 3 {
		h.Publish("g", i)
		<-fast.C()
	}
	// slow got 0 and 1, then was dropped at 2: its channel drains and closes.
	var got []int
	for e := range slow.C() {
		got = append(got, e)
	}
	if len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("slow subscriber received %v, want [0 1]", got)
	}
	if n := h.Subscribers("g"); n != 1 {
		t.Errorf("Subscribers = %d, want 1", n)
	}
	slow.Close() // idempotent after the drop
	slow.Close()
}

func TestCloseIdempotent(t *testing.T) {
	h := New[int, int](0)
	s := h.Subscribe(7)
	s.Close()
	s.Close()
	if _, ok := <-s.C(); ok {
		t.Error("channel open after Close")
	}
	if n := h.Subscribers(7); n != 0 {
		t.Errorf("Subscribers = %d, want 0", n)
	}
	h.Publish(7, 1) // no subscribers: nothing happens
}

func TestConcurrentPublishSubscribe(t *testing.T) {
	h := New[int, int](8)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range 200 {
				h.Publish(i%3, i)
			}
		})
		wg.Go(func() {
			for i := range 50 {
				s := h.Subscribe(i % 3)
				if i%2 == 0 {
					select {
					case <-s.C():
					default:
					}
				}
				s.Close()
			}
		})
	}
	wg.Wait()
	for topic := range 3 {
		if n := h.Subscribers(topic); n != 0 {
			t.Errorf("Subscribers(%d) = %d after all closed", topic, n)
		}
	}
}
