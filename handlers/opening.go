package handlers

import (
	"sync"

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
// move, their clock updates, the spectators', the page. Naming it walks
// the game from its start (opening.Lookup), some 10 µs at 60 plies, which
// was 4% of the server's CPU at 1,000 games before it was kept. A game's
// moves only grow, so its ID and ply name one list of moves. A game that
// is over is dropped (its page names it again when asked). The zero value
// is ready.
type openingCache struct {
	mu    sync.Mutex
	games map[int64]cachedOpening
}

type cachedOpening struct {
	ply int
	o   opening.Opening
}

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
		delete(c.games, snap.ID)
	}
	c.mu.Unlock()
	if ok && e.ply == ply {
		return e.o
	}
	o := openingAt(snap, ply)
	if over {
		return o
	}
	c.mu.Lock()
	if c.games == nil {
		c.games = make(map[int64]cachedOpening)
	}
	// A render of an older snapshot must not replace a newer entry.
	if cur, ok := c.games[snap.ID]; !ok || cur.ply < ply {
		c.games[snap.ID] = cachedOpening{ply, o}
	}
	c.mu.Unlock()
	return o
}
