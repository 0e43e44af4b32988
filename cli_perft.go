package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"satranc/engine/chess"
)

// runPerft counts the leaf nodes of the legal move tree:
//
//	satranc perft --depth N [--fen FEN] [--divide]
//
// With --divide it first prints each root move in UCI with its count, as
// Stockfish's `go perft` does, so that a mismatch can be traced move by move.
// The last line is always `nodes <N>`.
func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	depth := fs.Int("depth", 0, "plies to search (1 or more)")
	fen := fs.String("fen", chess.StartFEN, "position to start from")
	divide := fs.Bool("divide", false, "print the count below each root move")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *depth < 1 || *depth > 15 {
		fmt.Fprintln(stderr, "satranc perft: --depth must be a number from 1 to 15")
		fs.Usage()
		return 2
	}
	p, err := chess.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintf(stderr, "satranc perft: %v\n", err)
		return 1
	}

	start := time.Now()
	var nodes uint64
	if *divide {
		for _, m := range p.LegalMoves() {
			if err := ctx.Err(); err != nil {
				fmt.Fprintf(stderr, "satranc perft: %v\n", err)
				return 1
			}
			child := p.Play(m)
			n := child.Perft(*depth - 1)
			nodes += n
			fmt.Fprintf(stdout, "%s: %d\n", m, n)
		}
		fmt.Fprintln(stdout)
	} else {
		nodes = p.Perft(*depth)
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "time %s\n", elapsed.Round(time.Millisecond))
	if s := elapsed.Seconds(); s > 0 {
		fmt.Fprintf(stdout, "nodes/s %.0f\n", float64(nodes)/s)
	}
	fmt.Fprintf(stdout, "nodes %d\n", nodes)
	return 0
}
