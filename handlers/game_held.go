package handlers

import "sync"

// heldByStreams keeps a value per game for as long as a stream of the game
// holds it (hold, release), for the game's streams to share: what a
// thousand spectators of one game need is then held once, not a thousand
// times. The zero value is ready; mu guards the values, which lookups
// reach through value.
type heldByStreams[V any] struct {
	mu    sync.Mutex
	games map[int64]*heldValue[V]
}

// heldValue is one game's value and how many streams hold it.
type heldValue[V any] struct {
	streams int
	value   V
}

// hold keeps game id's value while a stream of it is open; release gives
// it back.
func (hs *heldByStreams[V]) hold(id int64) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.games == nil {
		hs.games = make(map[int64]*heldValue[V])
	}
	e := hs.games[id]
	if e == nil {
		e = &heldValue[V]{}
		hs.games[id] = e
	}
	e.streams++
}

// release gives back what hold took; the last stream of a game drops its
// value.
func (hs *heldByStreams[V]) release(id int64) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	e := hs.games[id]
	if e == nil {
		return
	}
	if e.streams--; e.streams <= 0 {
		delete(hs.games, id)
		if len(hs.games) == 0 {
			hs.games = nil // a map keeps the room it grew to: hold makes one anew
		}
	}
}

// value returns game id's value, nil when no stream holds the game. The
// caller holds mu.
func (hs *heldByStreams[V]) value(id int64) *V {
	if e := hs.games[id]; e != nil {
		return &e.value
	}
	return nil
}
