package uci

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// FuzzSession feeds arbitrary input to a session: it must never panic, and
// Run must return without error once ctx ends the longest search. Inputs with
// perft are left out: perft runs to the end whatever its depth, as
// Stockfish's does, so `go perft 10` is a long wait, not a fault.
func FuzzSession(f *testing.F) {
	for _, s := range []string{
		"uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 2\n",
		"position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1 moves d1d8\ngo depth 1\n",
		"position fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1\ngo nodes 100\nd\n",
		"position fen\nposition startpos moves e2e5\nposition\nposition fen 8/8/8/8/8/8/8/8 w - - 0 1\n",
		"go infinite\nisready\nstop\nquit\n",
		"go wtime 0 btime 0\ngo wtime -5 btime x winc binc\ngo movetime 0\ngo movestogo 0 wtime 100\n",
		"setoption name Level value easy\nsetoption name Hash value 0\nsetoption name\nsetoption\ngo depth 1\n",
		"joho debug on\n\x00\xff\r\n\tgo\tdepth\t1\r\nstop\n",
		"position startpos moves a7a8q e1g1 e8c8 0000\n",
		"go nodes 9223372036854775807 depth 1\ngo wtime 9223372036854775807 btime 9223372036854775807 movetime 1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		if strings.Contains(strings.ToLower(input), "perft") {
			t.Skip()
		}
		// A deep search may be asked for: the context ends it.
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		if err := NewSession(Config{Seed: 1}).Run(ctx, strings.NewReader(input), io.Discard); err != nil {
			t.Fatalf("Run = %v", err)
		}
	})
}
