package chess

import (
	"errors"
	"strings"
	"testing"
)

func TestParseFENRoundTrip(t *testing.T) {
	fens := []string{
		StartFEN,
		kiwipeteFEN,
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", // ep capture legal: kept
		"4k3/8/8/8/8/8/8/4K2R w K - 99 80",
		"r3k2r/8/8/8/8/8/8/R3K2R b Qk - 12 40",
	}
	for _, fen := range fens {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", fen, err)
			continue
		}
		if got := p.FEN(); got != fen {
			t.Errorf("ParseFEN(%q).FEN() = %q", fen, got)
		}
		if p.Hash() != p.computeHash() {
			t.Errorf("ParseFEN(%q): hash not set", fen)
		}
	}
}

func TestParseFENNormalises(t *testing.T) {
	tests := []struct{ in, want string }{
		// No black pawn can take on e3: the square is dropped (FIDE 9.2.3; the testdata convention).
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		// The capture would expose the king along the fifth rank.
		{"8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "8/8/8/K2pP2r/8/8/8/7k w - - 0 1"},
		// Move counters may be left out.
		{"4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"  4k3/8/8/8/8/8/8/4K3   w - - 3  9 ", "4k3/8/8/8/8/8/8/4K3 w - - 3 9"},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.in)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", tc.in, err)
			continue
		}
		if got := p.FEN(); got != tc.want {
			t.Errorf("ParseFEN(%q).FEN() = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// fenErrorTests are malformed FENs and what their error must mention;
// they seed FuzzParseFEN too.
var fenErrorTests = []struct{ fen, mention string }{
	{"", "6 fields"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "6 fields"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"},
	{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "not a piece letter"},
	{"rnbqkbnr/pppppppp/71/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "two digits"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN3 w KQkq - 0 1", "more than 8"},
	{"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "two digits"},
	{"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 squares"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "more than 8"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "not a piece letter"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "white has 0 kings"},
	{"rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQKBNR w kq - 0 1", "white has 2 kings"},
	{"rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9 pawns"},
	{"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "first or last rank"},
	{StartFEN[:44] + " x KQkq - 0 1", "side to move"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", "repeated or out of the order"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KX - 0 1", "castling"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling right K"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en-passant square"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "rank 6"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "no black pawn on e5"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove clock"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "move number"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"},
	{"4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "black is in check but it is white's turn"},
}

func TestParseFENErrors(t *testing.T) {
	for _, tc := range fenErrorTests {
		_, err := ParseFEN(tc.fen)
		if err == nil {
			t.Errorf("ParseFEN(%q) = nil error, want one mentioning %q", tc.fen, tc.mention)
			continue
		}
		if !errors.Is(err, ErrInvalidFEN) {
			t.Errorf("ParseFEN(%q) = %v, want it to wrap ErrInvalidFEN", tc.fen, err)
		}
		if !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseFEN(%q) = %q, want it to mention %q", tc.fen, err, tc.mention)
		}
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		StartFEN, kiwipeteFEN, "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
		"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
		"r3k2r/8/8/8/8/8/8/R3K2R b Qk - 12 40", "4k3/8/8/8/8/8/8/4K3 w - -", "", "8/8/8/8 w",
	} {
		f.Add(s)
	}
	for _, tc := range fenErrorTests {
		f.Add(tc.fen)
	}
	for _, tc := range readPerftEPD(f, "testdata/perft.epd") {
		f.Add(tc.fen)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			return
		}
		fen := p.FEN()
		q, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("ParseFEN(%q) ok, but its FEN %q fails: %v", s, fen, err)
		}
		if q != p {
			t.Fatalf("ParseFEN(%q): FEN %q does not round-trip", s, fen)
		}
		// The position must be sound enough to generate and play every move.
		for _, m := range p.LegalMoves() {
			c := p.Play(m)
			if c.Hash() != c.computeHash() {
				t.Fatalf("%s after %s: incremental hash differs from a fresh one", fen, m)
			}
			if c.IsAttacked(c.KingSquare(p.SideToMove()), c.SideToMove()) {
				t.Fatalf("%s: legal move %s leaves the king in check", fen, m)
			}
		}
	})
}
