package main

import (
	"context"
	"fmt"
	"io"
)

// runPGN runs the pgn command. Placeholder until the PGN reader lands.
func runPGN(_ context.Context, _ []string, _ io.Reader, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "satranc pgn: not implemented")
	return 2
}
