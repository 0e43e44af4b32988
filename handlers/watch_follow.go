package handlers

import (
	"context"
	"fmt"
	"sync"

	"satranc/views"
)

// watchFeed opens a feed of game id for the watch list: the local
// service's, or, on a node of a cluster that does not own the game, the
// bus's (game_feed.go), so that every node lists the same games and
// none claims another's game by reading it. A game another node owns
// when there is no bus cannot be read here: an error.
func (h *Handler) watchFeed(ctx context.Context, id int64) (GameFeed, error) {
	if h.owners != nil {
		owner, err := h.owners.GameOwner(ctx, id)
		switch {
		case err != nil:
			return nil, err
		case owner != nil && h.feeds == nil:
			return nil, fmt.Errorf("handlers: watch: game %d is run by %s", id, owner.Host)
		case owner != nil:
			return h.feeds.Follow(ctx, id)
		}
	}
	return h.followLocal(id), nil
}

// watchFollow holds the hub's feeds of the listed games (watchFeed). Each
// feed's goroutine only marks its game as moved and wakes the loop, so a
// burst of moves costs one read of the snapshot.
type watchFollow struct {
	h     *Handler
	feeds map[int64]GameFeed
	wake  chan struct{}

	mu    sync.Mutex
	dirty map[int64]bool
	lost  map[int64]bool // feeds that ended (dropped, or the bus went away)
}

func newWatchFollow(h *Handler) *watchFollow {
	return &watchFollow{h: h, feeds: map[int64]GameFeed{},
		wake: make(chan struct{}, 1), dirty: map[int64]bool{}, lost: map[int64]bool{}}
}

// follow opens feeds of the games of the list not followed yet (or whose
// feed ended) and closes the feeds of games that left it.
func (f *watchFollow) follow(ctx context.Context, games []views.MiniGame) {
	keep := make(map[int64]bool, len(games))
	for _, g := range games {
		keep[g.ID] = true
	}
	for id := range f.feeds {
		if !keep[id] {
			f.unfollow(id)
		}
	}
	f.mu.Lock()
	lost := f.lost
	f.lost = map[int64]bool{}
	f.mu.Unlock()
	for id := range keep {
		if feed, ok := f.feeds[id]; ok && !lost[id] {
			continue
		} else if ok {
			feed.Close()
		}
		feed, err := f.h.watchFeed(ctx, id)
		if err != nil {
			delete(f.feeds, id) // followed again at the next refresh
			f.h.log.WarnContext(ctx, "watch: follow", "game", id, "err", err)
			continue
		}
		f.feeds[id] = feed
		go f.relay(id, feed)
	}
}

// relay marks game id as moved at each of its events, until its feed
// ends.
func (f *watchFollow) relay(id int64, feed GameFeed) {
	for range feed.Events() {
		f.mu.Lock()
		f.dirty[id] = true
		f.mu.Unlock()
		select {
		case f.wake <- struct{}{}:
		default: // the loop is woken already
		}
	}
	f.mu.Lock()
	f.lost[id] = true // closed by us (unfollow) or dropped: followed again at the refresh if still listed
	f.mu.Unlock()
}

// take returns the games that moved since the last take.
func (f *watchFollow) take() []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	ids := make([]int64, 0, len(f.dirty))
	for id := range f.dirty {
		ids = append(ids, id)
	}
	clear(f.dirty)
	return ids
}

// unfollow closes the feed of game id.
func (f *watchFollow) unfollow(id int64) {
	if feed, ok := f.feeds[id]; ok {
		feed.Close()
		delete(f.feeds, id)
	}
}

// closeAll closes every feed.
func (f *watchFollow) closeAll() {
	for id := range f.feeds {
		f.unfollow(id)
	}
}
