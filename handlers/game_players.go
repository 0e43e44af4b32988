package handlers

import (
	"context"
	"maps"

	"satranc/engine/game"
	"satranc/engine/play"
)

// gamePlayers shares the players of each game with a stream open (their
// names, frames and ratings, seatedPlayers) among the game's streams: a
// game watched by a thousand spectators holds them once instead of once
// per stream. A stream reads them when it opens (fresh) and takes the
// shared entry after that, when the seats change or the game ends (of).
// The maps it hands out are read only. A game's entry lasts while a
// stream of it holds it (hold, release). The zero value is ready.
type gamePlayers struct {
	heldByStreams[seatedEntry]
}

// seatedEntry is one game's players, as read for its seats and for the
// game over or not (the ratings change at its end).
type seatedEntry struct {
	read    bool
	seats   [2]game.Seat
	over    bool
	players players
}

// of returns the players of snap for a stream that has them already: the
// game's entry when it was read for the same seats and the same end, a
// fresh read otherwise (kept for the other streams if the game is held).
func (gp *gamePlayers) of(ctx context.Context, h *Handler, snap play.Snapshot) players {
	seats, over := [2]game.Seat{snap.White, snap.Black}, snap.Status.Over()
	gp.mu.Lock()
	e := gp.value(snap.ID)
	if e != nil && e.read && e.seats == seats && e.over == over {
		p := e.players
		gp.mu.Unlock()
		return p
	}
	gp.mu.Unlock()
	return gp.fresh(ctx, h, snap)
}

// fresh reads the players of snap from the store and keeps them as the
// game's entry if the game is held. A stream that opens reads them so,
// since a name, a frame or a rating may have changed while the game's
// other streams stayed open (a player who chose a frame in settings and
// came back to the game must see it); a read equal to the entry returns
// the entry's maps, which the streams then share. The read is done
// without the lock, which every game's streams share; two streams
// reading at once both read, and the later one is kept.
func (gp *gamePlayers) fresh(ctx context.Context, h *Handler, snap play.Snapshot) players {
	seats, over := [2]game.Seat{snap.White, snap.Black}, snap.Status.Over()
	p := h.seatedPlayers(ctx, snap)
	gp.mu.Lock()
	defer gp.mu.Unlock()
	e := gp.value(snap.ID)
	if e == nil {
		return p
	}
	if e.read && e.seats == seats && e.over == over && e.players.equal(p) {
		return e.players
	}
	e.read, e.seats, e.over, e.players = true, seats, over, p
	return p
}

// equal says p and q hold the same names, frames and ratings.
func (p players) equal(q players) bool {
	return maps.Equal(p.names, q.names) && maps.Equal(p.frames, q.frames) && maps.Equal(p.ratings, q.ratings)
}
