package chess

import (
	"errors"
	"testing"
)

// uciTests are UCI moves and what they must read as; with uciErrorTests
// they seed FuzzParseUCI too.
var uciTests = []struct {
	name, fen, in, want string
	kind                MoveKind
}{
	{"pawn push", StartFEN, "e2e4", "e2e4", NormalMove},
	{"knight", StartFEN, "g1f3", "g1f3", NormalMove},
	{"castle two squares", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "e1g1", Castling},
	{"castle onto the rook", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "e1g1", Castling},
	{"castle long onto the rook", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8a8", "e8c8", Castling},
	{"promotion", "8/4P2k/8/8/8/8/8/K7 w - - 0 1", "e7e8q", "e7e8q", Promotion},
	{"underpromotion", "8/4P2k/8/8/8/8/8/K7 w - - 0 1", "e7e8n", "e7e8n", Promotion},
	{"en passant", "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", "d4e3", "d4e3", EnPassant},
}

func TestParseUCI(t *testing.T) {
	for _, tc := range uciTests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			m, err := p.ParseUCI(tc.in)
			if err != nil {
				t.Fatalf("ParseUCI(%s) in %s: %v", tc.in, tc.fen, err)
			}
			if m.String() != tc.want || m.Kind() != tc.kind {
				t.Errorf("ParseUCI(%s) = %s kind %d, want %s kind %d", tc.in, m, m.Kind(), tc.want, tc.kind)
			}
		})
	}
}

// uciErrorTests are UCI moves to refuse, and the error they get.
var uciErrorTests = []struct {
	fen, in string
	want    error
}{
	{StartFEN, "", ErrInvalidUCI},
	{StartFEN, "e2", ErrInvalidUCI},
	{StartFEN, "e2e4qq", ErrInvalidUCI},
	{StartFEN, "i2i4", ErrInvalidUCI},
	{StartFEN, "e2e4x", ErrInvalidUCI},
	{StartFEN, "e2e5", ErrIllegalMove},
	{StartFEN, "e7e5", ErrIllegalMove}, // not White's piece
	{StartFEN, "e1g1", ErrIllegalMove}, // pieces in the way
	{StartFEN, "e1h1", ErrIllegalMove},
	{"8/4P2k/8/8/8/8/8/K7 w - - 0 1", "e7e8", ErrIllegalMove}, // promotion piece missing
	{"8/4P2k/8/8/8/8/8/K7 w - - 0 1", "e7e8k", ErrInvalidUCI},
	{"r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "e1h1", ErrIllegalMove},      // no castling rights left
	{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1q", ErrIllegalMove},  // castling cannot promote
	{"4k3/8/8/8/8/8/8/R3K2r w Q - 0 1", "e1a1", ErrIllegalMove},        // in check: no castling
	{"r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1g1", ErrIllegalMove}, // the king would cross f1, attacked by the rook
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "0000", ErrInvalidUCI},
}

func TestParseUCIErrors(t *testing.T) {
	for _, tc := range uciErrorTests {
		p := mustFEN(t, tc.fen)
		before := p
		_, err := p.ParseUCI(tc.in)
		if !errors.Is(err, tc.want) {
			t.Errorf("ParseUCI(%q) in %s = %v, want %v", tc.in, tc.fen, err, tc.want)
		}
		if p != before {
			t.Errorf("ParseUCI(%q) changed the position", tc.in)
		}
	}
}

func FuzzParseUCI(f *testing.F) {
	f.Add(StartFEN, "e2e4")
	f.Add("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1")
	f.Add("8/4P2k/8/8/8/8/8/K7 w - - 0 1", "e7e8q")
	f.Add("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", "d4e3")
	for _, tc := range uciTests {
		f.Add(tc.fen, tc.in)
	}
	for _, tc := range uciErrorTests {
		f.Add(tc.fen, tc.in)
	}
	f.Fuzz(func(t *testing.T, fen, s string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		m, err := p.ParseUCI(s)
		if err != nil {
			return
		}
		legal := false
		for _, lm := range p.LegalMoves() {
			legal = legal || lm == m
		}
		if !legal {
			t.Fatalf("ParseUCI(%q) in %s = %s, which is not legal", s, fen, m)
		}
		// Every legal move's own UCI text reads back as itself.
		for _, lm := range p.LegalMoves() {
			if got, err := p.ParseUCI(lm.String()); err != nil || got != lm {
				t.Fatalf("ParseUCI(%s) in %s = %s, %v", lm, fen, got, err)
			}
		}
	})
}
