package handlers

import (
	"satranc/engine/chess"
	"satranc/engine/play"
)

// gameSANs shares the moves in SAN of each game with a stream open among
// the game's streams: each move is worked out once for all of them, and
// held once, where every stream kept a list of its own that grew with
// every move: in the 5,000-game soak those lists were 14.5 MB of the live
// heap's 42.7 MB growth from 200 to 550 s, as the games aged. A game's entry
// lasts while a stream of it holds it (hold, release). The lists it hands
// out are read only, and never written again: a longer list writes past
// their end, or into a new array. The zero value is ready.
type gameSANs struct {
	heldByStreams[sanEntry]
}

// sanEntry is one game's moves in SAN, in English and, once a viewer
// reads them in Turkish, in Turkish too (indexed by chess.Letters); last
// is the latest move worked out, pos the position after it.
type sanEntry struct {
	last chess.Move
	pos  chess.Position
	san  [2][]string
}

// of returns the moves of snap in SAN in letters l, from game snap.ID's
// entry, which it brings up to snap's moves; a game no stream holds gets
// nil (the view works them out: views.GameViewInput.SAN).
func (gs *gameSANs) of(snap *play.Snapshot, l chess.Letters) []string {
	if l != chess.Turkish {
		l = chess.English
	}
	gs.mu.Lock()
	defer gs.mu.Unlock()
	e := gs.value(snap.ID)
	if e == nil {
		return nil
	}
	e.catchUp(snap)
	n := len(snap.Moves)
	list := e.san[l]
	for i := len(list); i < n; i++ {
		list = append(list, l.FromEnglish(e.san[chess.English][i]))
	}
	e.san[l] = list
	return list[:n:n]
}

// catchUp works out the moves of snap the entry lacks. Moves that do not
// continue the entry's (which a game's never fail to) start it afresh,
// with new lists: the old ones may still be read. An older snapshot's
// moves are the entry's first ones.
func (e *sanEntry) catchUp(snap *play.Snapshot) {
	kept := len(e.san[chess.English])
	if kept > 0 && kept <= len(snap.Moves) && snap.Moves[kept-1].Move != e.last {
		*e = sanEntry{}
		kept = 0
	}
	if kept == 0 {
		e.pos = snap.Start
	}
	for _, m := range snap.Moves[min(kept, len(snap.Moves)):] {
		e.san[chess.English] = append(e.san[chess.English], e.pos.SAN(m.Move, chess.English))
		e.pos = e.pos.Play(m.Move)
		e.last = m.Move
	}
}
