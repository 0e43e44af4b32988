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
// Moves are read and written in UCI (ParseUCI, Move.String) and in SAN with
// English or Turkish piece letters (ParseSAN, SAN). NewGame keeps a game's
// record and decides the endings the rules impose (Termination); PGN files
// are read with NewPGNReader and written with WritePGN. Perft and Divide
// count the legal move tree for testing the generator.
//
// The package is pure: no I/O, no clocks, no goroutines.
package chess
