package opening

import (
	"strings"
	"testing"

	"satranc/engine/chess"
)

// sanMoves reads moves in SAN (English letters, no move numbers) played
// from the standard start.
func sanMoves(tb testing.TB, text string) []chess.Move {
	tb.Helper()
	p := chess.StartPosition()
	var out []chess.Move
	for _, s := range strings.Fields(text) {
		m, err := p.ParseSAN(s, chess.English)
		if err != nil {
			tb.Fatalf("ParseSAN(%q) after %v: %v", s, out, err)
		}
		out = append(out, m)
		p = p.Play(m)
	}
	return out
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name  string
		moves string
		want  Opening
	}{
		{"sicilian", "e4 c5", Opening{"B20", "Sicilian Defense"}},
		{"sicilian after Nf3", "e4 c5 Nf3", Opening{"B27", "Sicilian Defense"}},
		{"ruy lopez", "e4 e5 Nf3 Nc6 Bb5", Opening{"C60", "Ruy Lopez"}},
		{"ruy lopez morphy", "e4 e5 Nf3 Nc6 Bb5 a6", Opening{"C70", "Ruy Lopez: Morphy Defense"}},
		{"italian", "e4 e5 Nf3 Nc6 Bc4", Opening{"C50", "Italian Game"}},
		{"king's gambit", "e4 e5 f4", Opening{"C30", "King's Gambit"}},
		{"nimzo-indian", "d4 Nf6 c4 e6 Nc3 Bb4", Opening{"E20", "Nimzo-Indian Defense"}},
		// The Nimzo-Indian reached from the English Opening: the position
		// is named, whatever the order of the moves.
		{"transposition", "c4 e6 Nc3 Nf6 d4 Bb4", Opening{"E20", "Nimzo-Indian Defense"}},
		{"réti to queen's pawn", "Nf3 Nf6 c4 e6 d4", Opening{"E10", "Indian Defense: Anti-Nimzo-Indian"}},
		// Out of the book (two kings' walks no line has), the game keeps
		// the name of the last named position.
		{"out of book", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Bg5 e6 Kd2 Kd7 Ke2 Ke7",
			Opening{"B95", "Sicilian Defense: Najdorf Variation"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Lookup(chess.StartPosition(), sanMoves(t, tc.moves))
			if !ok || got != tc.want {
				t.Errorf("Lookup(%s) = %v, %v, want %v", tc.moves, got, ok, tc.want)
			}
		})
	}
}

// otherStart returns a start that is not the standard one, the Sicilian's
// position set up from its FEN, and Nf3 there: the named position of
// B27, reached by a game the book does not name.
func otherStart(t *testing.T) (chess.Position, chess.Move) {
	t.Helper()
	p, err := chess.ParseFEN("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.ParseSAN("Nf3", chess.English)
	if err != nil {
		t.Fatal(err)
	}
	return p, m
}

func TestLookupNone(t *testing.T) {
	if o, ok := Lookup(chess.StartPosition(), nil); ok {
		t.Errorf("Lookup(no moves) = %v, want none", o)
	}
	// The start position has no name; neither has a game from another
	// start, even one whose position is in the book.
	p, m := otherStart(t)
	if o, ok := Lookup(p, []chess.Move{m}); ok {
		t.Errorf("Lookup(from %s, Nf3) = %v, want none: not the standard start", p.FEN(), o)
	}
}

// TestWalk: a walk names the game after every move as Lookup names it
// from the start, along every line of the book and past its end, and
// names nothing from another start.
func TestWalk(t *testing.T) {
	lines := Lines()
	tail := sanMoves(t, "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Bg5 e6 Kd2 Kd7 Ke2 Ke7")
	lines = append(lines, Line{Moves: tail})
	for _, l := range lines {
		w := Begin(chess.StartPosition())
		for ply, m := range l.Moves {
			w.Play(m)
			got, gotOK := w.Opening()
			want, wantOK := Lookup(chess.StartPosition(), l.Moves[:ply+1])
			if got != want || gotOK != wantOK || w.Plies() != ply+1 {
				t.Fatalf("%s, ply %d: walk names %v, %v after %d plies; Lookup %v, %v", l.Name, ply+1, got, gotOK, w.Plies(), want, wantOK)
			}
		}
	}
	p, m := otherStart(t)
	w := Begin(p)
	w.Play(m)
	if o, ok := w.Opening(); ok || w.Plies() != 1 {
		t.Errorf("walk from %s after Nf3: %v, %v after %d plies, want none after 1", p.FEN(), o, ok, w.Plies())
	}
}

func TestFamily(t *testing.T) {
	tests := []struct {
		name, family, variation string
	}{
		{"Sicilian Defense", "Sicilian Defense", ""},
		{"Ruy Lopez: Morphy Defense", "Ruy Lopez", "Morphy Defense"},
		{"Ruy Lopez: Marshall Attack, Main Line, Spassky Variation", "Ruy Lopez", "Marshall Attack, Main Line, Spassky Variation"},
		{"Vienna Gambit, with Max Lange Defense: Hamppe-Steinitz Gambit", "Vienna Gambit, with Max Lange Defense", "Hamppe-Steinitz Gambit"},
	}
	for _, tc := range tests {
		o := Opening{ECO: "A00", Name: tc.name}
		if got := o.Family(); got != tc.family {
			t.Errorf("Opening{%q}.Family() = %q, want %q", tc.name, got, tc.family)
		}
		if got := o.Variation(); got != tc.variation {
			t.Errorf("Opening{%q}.Variation() = %q, want %q", tc.name, got, tc.variation)
		}
	}
}

// TestEveryLineParses: all 3,807 lines of the data set are read, their
// moves legal, and each line's own moves are named by its own name.
func TestEveryLineParses(t *testing.T) {
	b, err := parse(files)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if got, want := len(b.lines), 3807; got != want {
		t.Fatalf("parse read %d lines, want %d", got, want)
	}
	vols := map[byte]int{}
	for _, l := range Lines() {
		if len(l.ECO) != 3 || l.ECO[0] < 'A' || l.ECO[0] > 'E' || l.Name == "" || len(l.Moves) == 0 {
			t.Errorf("line %+v is malformed", l)
		}
		vols[l.ECO[0]]++
		if got, ok := Lookup(chess.StartPosition(), l.Moves); !ok || got != l.Opening {
			t.Errorf("Lookup(moves of %v) = %v, %v, want the line's own name", l.Opening, got, ok)
		}
	}
	if len(vols) != 5 {
		t.Errorf("lines by ECO volume = %v, want all of A to E", vols)
	}
}

// TestNamedPositionsAreDistinct: no two lines reach the same position,
// and no two named positions share a Zobrist key, so every name can be
// found.
func TestNamedPositionsAreDistinct(t *testing.T) {
	b := loaded()
	if len(b.named) != len(b.lines) {
		t.Errorf("%d named positions for %d lines, want one each", len(b.named), len(b.lines))
	}
	if len(b.hashes) != len(b.named) {
		t.Errorf("%d Zobrist keys for %d named positions, want one each", len(b.hashes), len(b.named))
	}
}

func TestLinesIsACopy(t *testing.T) {
	l := Lines()
	l[0].Opening = Opening{"X00", "changed"}
	if got := Lines()[0].Opening; got == l[0].Opening {
		t.Errorf("Lines()[0] = %v after the caller changed its slice", got)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, data string }{
		{"columns", "eco\tname\tpgn\nB20\tSicilian Defense\n"},
		{"illegal", "eco\tname\tpgn\nB20\tSicilian Defense\t1. e5\n"},
		{"no moves", "eco\tname\tpgn\nB20\tSicilian Defense\t\n"},
	}
	for _, tc := range tests {
		b := &book{hashes: map[uint64]struct{}{}, named: map[key]Opening{}}
		if err := b.read("x.tsv", []byte(tc.data)); err == nil || !strings.HasPrefix(err.Error(), "opening: invalid data: x.tsv:2") {
			t.Errorf("read(%s) = %v, want an error about x.tsv:2", tc.name, err)
		}
	}
}

// BenchmarkLookup classifies a 40-ply game that leaves the book after 16
// plies (a Najdorf with both kings walking), as a game page does after
// every move.
func BenchmarkLookup(b *testing.B) {
	moves := sanMoves(b, "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be2 e5 Nb3 Be7 O-O O-O "+
		"Be3 Be6 Qd2 Nbd7 a4 Rc8 a5 Qc7 Rfd1 Rfd8 f3 h6 Kh1 Kh7 Qe1 Kg8 Qf2 Kh7 Qg1 Kg8 Qf2 Kh8 Qg1 Kg8")
	if len(moves) != 40 {
		b.Fatalf("%d moves, want 40", len(moves))
	}
	start := chess.StartPosition()
	if _, ok := Lookup(start, moves); !ok {
		b.Fatal("Lookup found no opening")
	}
	b.ReportAllocs()
	for b.Loop() {
		Lookup(start, moves)
	}
}

// BenchmarkWalkPlay names a game's opening after one more move, as the
// live games' cache does (handlers/opening.go), at the 40th ply of
// BenchmarkLookup's game.
func BenchmarkWalkPlay(b *testing.B) {
	moves := sanMoves(b, "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be2 e5 Nb3 Be7 O-O O-O "+
		"Be3 Be6 Qd2 Nbd7 a4 Rc8 a5 Qc7 Rfd1 Rfd8 f3 h6 Kh1 Kh7 Qe1 Kg8 Qf2 Kh7 Qg1 Kg8 Qf2 Kh8 Qg1 Kg8")
	w := Begin(chess.StartPosition())
	for _, m := range moves[:39] {
		w.Play(m)
	}
	b.ReportAllocs()
	for b.Loop() {
		next := w
		next.Play(moves[39])
	}
}

// BenchmarkParse reads the whole data set, as the first Lookup does once.
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse(files); err != nil {
			b.Fatal(err)
		}
	}
}
