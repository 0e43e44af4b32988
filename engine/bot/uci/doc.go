// Package uci puts the bots of package bot behind the Universal Chess
// Interface (https://www.shredderchess.com/download/div/uci.zip), so that
// chess GUIs and match runners can play them; `satranc uci` runs a Session
// on stdin and stdout.
//
//	s := uci.NewSession(uci.Config{Version: "v1.2.0", Level: bot.Max, Seed: seed})
//	err := s.Run(ctx, os.Stdin, os.Stdout)
//
// A Session reads one command per line and writes its replies as the
// protocol asks: `uci`, `isready`, `ucinewgame`, `setoption` (Level and
// Hash), `position startpos|fen ... [moves ...]`, `go` (depth, nodes,
// movetime, wtime/btime/winc/binc/movestogo, infinite; a bare `go` is
// infinite), `stop`, `quit`, plus Stockfish's `go perft N` and `d`.
// Unknown commands and leading tokens are ignored, as the protocol asks;
// bad input (a malformed position, an illegal move, a bad option value) is
// answered with an `info string error: ...` line and changes nothing.
//
// The package does no I/O but the two streams it is given and reads no
// clock: the search's own deadlines are package bot's business.
package uci
