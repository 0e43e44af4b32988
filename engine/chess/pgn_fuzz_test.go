package chess

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
)

// FuzzPGN checks that no input makes the reader panic, that it reports
// only *PGNError values, and that every game it reads writes (in both sets
// of letters) and reads back to the same game, and writes again to the same
// text.
func FuzzPGN(f *testing.F) {
	for _, tc := range pgnReaderTests {
		f.Add([]byte(tc.in), false)
	}
	f.Add([]byte("[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n1. Kb1 Şd7 2. Şe2 Şc6 3. Kb6+ *"), true)
	f.Add([]byte("1. e4 e5 2. Af3 Ac6 3. Fb5 {[%clk 0:01:00]} a6 $1 (3... Af6) 4. Fa4 *"), true)
	if data, err := os.ReadFile("testdata/pgn_input.pgn"); err == nil {
		f.Add(data, false)
	}
	for _, name := range []string{"testdata/pgn_write_en.golden", "testdata/pgn_write_tr.golden"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, name == "testdata/pgn_write_tr.golden")
		}
	}

	f.Fuzz(func(t *testing.T, data []byte, turkish bool) {
		l := English
		if turkish {
			l = Turkish
		}
		r := NewPGNReader(bytes.NewReader(data), l)
		for n := 1; ; n++ {
			if n > len(data)+2 {
				t.Fatalf("read %d games from %d bytes", n, len(data))
			}
			g, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var pe *PGNError
				if !errors.As(err, &pe) {
					t.Fatalf("Next() = %v, want a *PGNError", err)
				}
				continue
			}
			for _, out := range []Letters{English, Turkish} {
				checkPGNRoundTrip(t, g, out)
			}
		}
	})
}

func checkPGNRoundTrip(t *testing.T, g *PGNGame, l Letters) {
	t.Helper()
	var b bytes.Buffer
	if err := WritePGN(&b, g, l); err != nil {
		t.Fatalf("WritePGN(%v): %v", l, err)
	}
	text := b.String()
	r := NewPGNReader(&b, l)
	g2, err := r.Next()
	if err != nil {
		t.Fatalf("re-read in %v: %v\n%s", l, err, text)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("re-read in %v: second Next() = %v, want io.EOF\n%s", l, err, text)
	}
	if got, want := summarizePGN(g2), summarizePGNForRoundTrip(withAddedTags(g2, g)); got != want {
		t.Fatalf("round trip in %v:\ngot  %s\nwant %s\ntext:\n%s", l, got, want, text)
	}
	if g2.Record.Termination() != g.Record.Termination() {
		t.Fatalf("round trip in %v: termination %v, want %v", l, g2.Record.Termination(), g.Record.Termination())
	}
	var b2 bytes.Buffer
	if err := WritePGN(&b2, g2, l); err != nil {
		t.Fatalf("second WritePGN(%v): %v", l, err)
	}
	if b2.String() != text {
		t.Fatalf("second write in %v differs:\n%s\nfirst:\n%s", l, b2.String(), text)
	}
}

// withAddedTags returns g with the tags the writer adds: SetUp (and FEN, if
// g lacks it) right after the Seven Tag Roster when g2, the game read back,
// has a SetUp tag that g lacks.
func withAddedTags(g2, g *PGNGame) *PGNGame {
	if _, ok := g.Tag("SetUp"); ok {
		return g
	}
	v, ok := g2.Tag("SetUp")
	if !ok {
		return g
	}
	h := *g
	added := []PGNTag{{"SetUp", v}}
	if _, hasFEN := g.Tag("FEN"); !hasFEN {
		added = append(added, PGNTag{"FEN", g2.Start.FEN()})
	}
	h.Tags = append(added, g.Tags...)
	return &h
}
