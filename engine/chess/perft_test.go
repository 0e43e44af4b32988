package chess

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

type perftCase struct {
	fen    string
	depth  int
	nodes  uint64
	lineNo int
}

// readPerftEPD reads lines of the form `FEN ;D1 20 ;D2 400 ...`.
func readPerftEPD(t testing.TB, path string) []perftCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		parts := strings.Split(sc.Text(), ";")
		if strings.TrimSpace(parts[0]) == "" {
			continue
		}
		for _, d := range parts[1:] {
			var depth int
			var nodes uint64
			fs := strings.Fields(d)
			if len(fs) != 2 || !strings.HasPrefix(fs[0], "D") {
				t.Fatalf("%s:%d: bad depth field %q", path, n, d)
			}
			depth, err1 := strconv.Atoi(fs[0][1:])
			nodes, err2 := strconv.ParseUint(fs[1], 10, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s:%d: bad depth field %q", path, n, d)
			}
			cases = append(cases, perftCase{strings.TrimSpace(parts[0]), depth, nodes, n})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestPerft(t *testing.T) {
	for _, file := range []string{"testdata/perft.epd", "testdata/perft_terminal.epd"} {
		for _, tc := range readPerftEPD(t, file) {
			if testing.Short() && tc.nodes > 100_000 {
				continue
			}
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Errorf("%s:%d: ParseFEN: %v", file, tc.lineNo, err)
				continue
			}
			before := p
			if got := p.Perft(tc.depth); got != tc.nodes {
				t.Errorf("%s:%d: Perft(%d) of %s = %d, want %d", file, tc.lineNo, tc.depth, tc.fen, got, tc.nodes)
			}
			if p != before {
				t.Errorf("%s:%d: Perft changed the position", file, tc.lineNo)
			}
		}
	}
}
