package handlers

import (
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
