package limit

import "sync"

// Slots caps how many of something each key holds at once, such as the
// event streams one member has open: Take a slot when it starts, Give it
// back when it ends. Unlike Window it counts what is held now, not what
// happened lately. Set Max before the first Take; a Slots is safe for
// concurrent use and must not be copied after its first use.
type Slots[K comparable] struct {
	// Max is the number of slots each key may hold; 0 or less is no cap
	// (the slots are still counted).
	Max int

	mu   sync.Mutex
	held map[K]int
}

// Take takes a slot for key and reports true, or reports false, taking
// nothing, when key holds Max already.
func (s *Slots[K]) Take(key K) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held == nil {
		s.held = make(map[K]int)
	}
	n := s.held[key]
	if s.Max > 0 && n >= s.Max {
		return false
	}
	s.held[key] = n + 1
	return true
}

// Give gives back a slot of key, which must hold one. A key that holds
// none is forgotten, so that memory follows what is held now.
func (s *Slots[K]) Give(key K) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch n := s.held[key]; {
	case n > 1:
		s.held[key] = n - 1
	case n == 1:
		delete(s.held, key)
		if len(s.held) == 0 {
			s.held = nil // a map keeps the room it grew to: Take makes one anew
		}
	default:
		panic("limit: Give without Take")
	}
}

// Held returns the number of slots key holds.
func (s *Slots[K]) Held(key K) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held[key]
}

// keys returns the number of keys that hold slots, for the tests.
func (s *Slots[K]) keys() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.held)
}
