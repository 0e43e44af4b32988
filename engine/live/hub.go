package live

import "sync"

// DefaultBuffer is the channel capacity New uses for a buffer of 0 or less.
const DefaultBuffer = 16

// Hub relays messages of type E on topics of type K. It is safe for
// concurrent use; the zero Hub is not usable, call New.
type Hub[K comparable, E any] struct {
	buffer int

	mu   sync.Mutex
	subs map[K]map[*Subscription[K, E]]struct{}
}

// New returns a hub whose subscribers each buffer up to buffer messages.
func New[K comparable, E any](buffer int) *Hub[K, E] {
	if buffer <= 0 {
		buffer = DefaultBuffer
	}
	return &Hub[K, E]{buffer: buffer, subs: make(map[K]map[*Subscription[K, E]]struct{})}
}

// Subscription is one subscriber of one topic.
type Subscription[K comparable, E any] struct {
	hub   *Hub[K, E]
	topic K
	c     chan E
	// closed reports that c is closed. It is guarded by hub.mu, which
	// every close holds anyway: a bool instead of a sync.Once puts each
	// stream's subscription a size class lower (32 bytes, not 48, with
	// int64 topics).
	closed bool
}

// Subscribe adds a subscriber to topic. The caller must Close it.
func (h *Hub[K, E]) Subscribe(topic K) *Subscription[K, E] {
	s := &Subscription[K, E]{hub: h, topic: topic, c: make(chan E, h.buffer)}
	h.mu.Lock()
	defer h.mu.Unlock()
	set := h.subs[topic]
	if set == nil {
		set = make(map[*Subscription[K, E]]struct{})
		h.subs[topic] = set
	}
	set[s] = struct{}{}
	return s
}

// Publish sends e to every subscriber of topic without blocking: a
// subscriber whose buffer is full is dropped and its channel closed.
func (h *Hub[K, E]) Publish(topic K, e E) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[topic] {
		select {
		case s.c <- e:
		default:
			h.remove(s)
		}
	}
}

// Subscribers returns the number of subscribers of topic.
func (h *Hub[K, E]) Subscribers(topic K) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[topic])
}

// remove deletes s from its topic and closes its channel once. h.mu is held.
func (h *Hub[K, E]) remove(s *Subscription[K, E]) {
	set := h.subs[s.topic]
	if _, ok := set[s]; ok {
		delete(set, s)
		if len(set) == 0 {
			delete(h.subs, s.topic)
			if len(h.subs) == 0 {
				// A map keeps the room it grew to, however few it holds.
				h.subs = make(map[K]map[*Subscription[K, E]]struct{})
			}
		}
	}
	if !s.closed {
		s.closed = true
		close(s.c)
	}
}

// C returns the channel the subscriber receives on. It is closed when the
// subscriber is dropped (because it fell behind) or closed.
func (s *Subscription[K, E]) C() <-chan E { return s.c }

// Topic returns the topic subscribed to.
func (s *Subscription[K, E]) Topic() K { return s.topic }

// Close unsubscribes and closes the channel. It is idempotent and safe to
// call after the hub has dropped the subscriber.
func (s *Subscription[K, E]) Close() {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	s.hub.remove(s)
}
