// Package chess is Satranç's rules engine: squares and pieces, a bitboard
// position, legal move generation, Zobrist keys, FEN, UCI and SAN notation
// (English and Turkish letters), PGN, game status and perft.
//
// A Position is a small value. Play returns the position after a move and
// leaves the receiver untouched, so positions can be shared freely between
// goroutines:
//
//	p, err := chess.ParseFEN(chess.StartFEN)
//	if err != nil { ... }
//	m, err := p.ParseUCI("e2e4")
//	if err != nil { ... }
//	p = p.Play(m)
//
// The package is pure: no I/O, no clocks, no goroutines.
package chess
