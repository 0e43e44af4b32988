// Package opening names chess openings: the ECO code and the English name
// of the position a game has reached, from the 3,807 named openings of the
// lichess-org/chess-openings data set (CC0; data/README.md).
//
// A game is classified as the data set intends: walk back from the current
// position to the last position that has a name. Positions are compared,
// not move strings, so a transposition finds its opening, and a game that
// has left the book keeps the name of the last named position it passed:
//
//	o, ok := opening.Lookup(chess.StartPosition(), moves)
//	if ok {
//		fmt.Println(o.ECO, o.Name) // "B20 Sicilian Defense"
//	}
//
// Lines lists every named line with its moves, for an opening book.
//
// The data is parsed once, on first use. The names are English; a page
// translates the family (Family) itself. The package is pure: no I/O
// beyond its embedded files, no goroutines.
package opening
