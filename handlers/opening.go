package handlers

import (
	"sync"
	"time"

	"satranc/engine/chess"
	"satranc/engine/opening"
	"satranc/engine/play"
)

// openingAt names the opening of snap's game after ply half-moves
// (clamped to the game's length), for the game page and the replay
// (views.GameViewInput.Opening): the last named position the game passed
// (engine/opening). A game from another start than the standard one has
// none.
func openingAt(snap play.Snapshot, ply int) opening.Opening {
	ply = min(max(ply, 0), len(snap.Moves))
	moves := make([]chess.Move, ply)
	for i, m := range snap.Moves[:ply] {
		moves[i] = m.Move
	}
	o, _ := opening.Lookup(snap.Start, moves)
	return o
}

// openingCache keeps the opening of each live game as of its latest ply,
// which every render of the game needs: both players' streams after each
// move, their clock updates, the spectators', the page. It keeps the
// game's walk through the book (opening.Walk), so that a new ply names
// the opening from the positions of the moves since, not from the start:
// walked from the start after each move, naming took 3.4% of the server's
// CPU at 5,000 games. A game's moves only grow, so its ID and ply name
// one list of moves. A game that is over is dropped (its page names it
// again when asked), and so is one whose ply has not changed for
// openingIdle: a game that ended with nobody watching is never rendered
// over. Make one with newOpeningCache.
type openingCache struct {
	mu     sync.Mutex
	games  map[int64]cachedOpening
	sweeps *sweepTimer
}

func newOpeningCache() *openingCache {
	c := &openingCache{}
	c.sweeps = newSweepTimer(openingIdle, func() bool { return c.sweep(time.Now()) })
	return c
}

type cachedOpening struct {
	walk   opening.Walk
	stored time.Time
}

// openingIdle is how long an opening stays cached after its game's
// latest move: longer than most moves take, and a game that thinks
// longer only names its opening again.
const openingIdle = 10 * time.Minute

// of returns the opening of snap's game as it stands (openingAt at its
// last ply).
func (c *openingCache) of(snap play.Snapshot) opening.Opening {
	ply := len(snap.Moves)
	over := snap.Status.Over()
	if snap.ID == 0 { // not a stored game: nothing names its moves
		return openingAt(snap, ply)
	}
	c.mu.Lock()
	e, ok := c.games[snap.ID]
	if over && ok {
		c.drop(snap.ID)
	}
	c.mu.Unlock()
	w := e.walk
	if !ok || w.Plies() > ply { // an older snapshot than the one walked
		w = opening.Begin(snap.Start)
	}
	for _, m := range snap.Moves[w.Plies():] {
		w.Play(m.Move)
	}
	o, _ := w.Opening()
	if over || (ok && e.walk.Plies() == ply) {
		return o
	}
	c.mu.Lock()
	if c.games == nil {
		c.games = make(map[int64]cachedOpening)
	}
	// A render of an older snapshot must not replace a newer entry.
	cur, ok := c.games[snap.ID]
	stored := !ok || cur.walk.Plies() < ply
	if stored {
		c.games[snap.ID] = cachedOpening{w, time.Now()}
	}
	c.mu.Unlock()
	if stored {
		c.sweeps.arm()
	}
	return o
}

// drop forgets game id; c.mu is held.
func (c *openingCache) drop(id int64) {
	delete(c.games, id)
	if len(c.games) == 0 {
		c.games = nil // a map keeps the room it grew to: of makes one anew
	}
}

// sweep forgets the games whose ply has not changed for openingIdle
// before now, and reports whether any are left.
func (c *openingCache) sweep(now time.Time) (left bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, e := range c.games {
		if now.Sub(e.stored) >= openingIdle {
			c.drop(id)
		}
	}
	return len(c.games) > 0
}
