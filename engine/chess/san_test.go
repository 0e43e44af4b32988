package chess

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// sanCase is one line of testdata/san.jsonl: SAN as it must be written and read.
type sanCase struct {
	FEN  string   `json:"fen"`
	UCI  string   `json:"uci"`
	SAN  string   `json:"san"`
	Tags []string `json:"tags"`
}

// sanInvalidCase is one line of testdata/san_invalid.jsonl: SAN to reject.
type sanInvalidCase struct {
	FEN    string `json:"fen"`
	SAN    string `json:"san"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// sanReadJSONL reads one JSON value per non-empty line of path.
func sanReadJSONL[T any](tb testing.TB, path string) []T {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return out
}

// sanFEN parses fen or fails the test.
func sanFEN(tb testing.TB, fen string) Position {
	tb.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		tb.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// sanLegal returns the legal move of p written uci in UCI (castling as the
// king's two-square step), failing the test if there is none.
func sanLegal(tb testing.TB, p Position, uci string) Move {
	tb.Helper()
	for _, m := range p.LegalMoves() {
		if m.String() == uci {
			return m
		}
	}
	tb.Fatalf("%s is not a legal move in %s", uci, p.FEN())
	return NullMove
}

// sanToTurkish translates English SAN into Turkish letters: the leading piece
// letter and the promotion letter. Castling keeps the letter O.
func sanToTurkish(en string) string {
	tr := map[byte]string{'K': "Ş", 'Q': "V", 'R': "K", 'B': "F", 'N': "A"}
	var b strings.Builder
	for i := 0; i < len(en); i++ {
		c := en[i]
		if t, ok := tr[c]; ok && (i == 0 || en[i-1] == '=') {
			b.WriteString(t)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// sanCheckMove checks that m is written want in English, that want reads back
// as m, and that the Turkish spelling is the translation of want and reads
// back as m too.
func sanCheckMove(t *testing.T, p Position, m Move, want string) {
	t.Helper()
	if got := p.SAN(m, English); got != want {
		t.Errorf("SAN(%s, English) = %q, want %q in %s", m, got, want, p.FEN())
	}
	if got, err := p.ParseSAN(want, English); err != nil || got != m {
		t.Errorf("ParseSAN(%q, English) = %v, %v, want %v in %s", want, got, err, m, p.FEN())
	}
	tr := p.SAN(m, Turkish)
	if wantTR := sanToTurkish(want); tr != wantTR {
		t.Errorf("SAN(%s, Turkish) = %q, want %q in %s", m, tr, wantTR, p.FEN())
	}
	if got, err := p.ParseSAN(tr, Turkish); err != nil || got != m {
		t.Errorf("ParseSAN(%q, Turkish) = %v, %v, want %v in %s", tr, got, err, m, p.FEN())
	}
}

func TestSANCases(t *testing.T) {
	cases := sanReadJSONL[sanCase](t, "testdata/san.jsonl")
	if len(cases) == 0 {
		t.Fatal("testdata/san.jsonl has no cases")
	}
	for _, tc := range cases {
		t.Run(tc.UCI+"_"+tc.SAN, func(t *testing.T) {
			p := sanFEN(t, tc.FEN)
			sanCheckMove(t, p, sanLegal(t, p, tc.UCI), tc.SAN)
		})
	}
}

// TestFromEnglish checks that every case's English SAN, put in Turkish
// letters, is the SAN written in Turkish, and that English letters leave
// it as it is.
func TestFromEnglish(t *testing.T) {
	for _, tc := range sanReadJSONL[sanCase](t, "testdata/san.jsonl") {
		p := sanFEN(t, tc.FEN)
		m := sanLegal(t, p, tc.UCI)
		en := p.SAN(m, English)
		if got, want := Turkish.FromEnglish(en), p.SAN(m, Turkish); got != want {
			t.Errorf("%s %s: Turkish.FromEnglish(%q) = %q, want %q", tc.FEN, tc.UCI, en, got, want)
		}
		if got := English.FromEnglish(en); got != en {
			t.Errorf("English.FromEnglish(%q) = %q", en, got)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = Turkish.FromEnglish("exd5+") }); n != 0 {
		t.Errorf("FromEnglish of a pawn move allocates %v times, want 0", n)
	}
}

// sanInvalidKinds maps each kind in san_invalid.jsonl to the error it gets:
// text that can never be a move is invalid; well-formed SAN that names no
// legal move here is illegal; SAN that names several is ambiguous.
var sanInvalidKinds = map[string]error{
	"ambiguous":    ErrAmbiguousSAN,
	"pinned":       ErrIllegalMove,
	"promotion":    ErrInvalidSAN,
	"castling":     ErrIllegalMove,
	"syntax":       ErrInvalidSAN,
	"king_safety":  ErrIllegalMove,
	"no_such_move": ErrIllegalMove,
}

func TestSANInvalidCases(t *testing.T) {
	cases := sanReadJSONL[sanInvalidCase](t, "testdata/san_invalid.jsonl")
	if len(cases) == 0 {
		t.Fatal("testdata/san_invalid.jsonl has no cases")
	}
	for _, tc := range cases {
		t.Run(tc.Kind+"_"+tc.SAN, func(t *testing.T) {
			want, ok := sanInvalidKinds[tc.Kind]
			if !ok {
				t.Fatalf("unknown kind %q: add it to sanInvalidKinds", tc.Kind)
			}
			p := sanFEN(t, tc.FEN)
			// The same move in Turkish letters is refused the same way.
			for l, san := range map[Letters]string{English: tc.SAN, Turkish: sanToTurkish(tc.SAN)} {
				m, err := p.ParseSAN(san, l)
				if !errors.Is(err, want) {
					t.Fatalf("ParseSAN(%q, %v) = %v, %v, want an error wrapping %v (%s) in %s", san, l, m, err, want, tc.Reason, tc.FEN)
				}
				if !strings.Contains(err.Error(), san) {
					t.Errorf("ParseSAN(%q, %v) error %q does not name the move", san, l, err)
				}
			}
		})
	}
}

func TestParseSAN(t *testing.T) {
	const (
		kings      = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
		rookVsKing = "4k3/8/8/8/8/8/R7/4K3 w - - 0 1" // K to d2 is the rook in Turkish, the king in English
		rookTakes  = "4r1k1/8/8/8/8/8/8/4R1K1 w - - 0 1"
		queen      = "4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1"
		bishop     = "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"
		bishopPawn = "4k3/8/8/4p3/3B1P2/8/8/4K3 w - - 0 1" // Fxe5 the bishop, fxe5 the pawn
		knightPawn = "4k3/8/8/1p6/P7/2N5/8/4K3 w - - 0 1"  // Axb5 the knight, axb5 the pawn
		knights    = "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1"
		knightsAmb = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1" // both reach d2
		enPassant  = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
		promote    = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"
		promoTake  = "k2r4/4P3/8/8/8/8/8/4K3 w - - 0 1"
		castle     = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
		check      = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1" // Qd8+ and Qe2+ give check
		capture    = "4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1"
	)
	tests := []struct {
		name    string
		fen     string
		san     string
		letters Letters
		want    string // UCI of the move, or "" when err is set
		err     error
	}{
		{"tr king", kings, "Şe2", Turkish, "e1e2", nil},
		{"tr K is the rook", rookVsKing, "Kd2", Turkish, "a2d2", nil},
		{"tr K is never the king", kings, "Ke2", Turkish, "", ErrIllegalMove},
		{"tr rook capture", rookTakes, "Kxe8", Turkish, "e1e8", nil},
		{"tr rook capture with mate mark", rookTakes, "Kxe8#", Turkish, "e1e8", nil},
		{"tr queen", queen, "Vd1", Turkish, "d4d1", nil},
		{"tr English queen letter", queen, "Qd1", Turkish, "d4d1", nil},
		{"tr bishop", bishop, "Fb5", Turkish, "f1b5", nil},
		{"tr bishop capture", bishopPawn, "Fxe5", Turkish, "d4e5", nil},
		{"tr f-pawn capture", bishopPawn, "fxe5", Turkish, "f4e5", nil},
		{"tr knight", knights, "Ac3", Turkish, "b1c3", nil},
		{"tr English knight letter", knights, "Nc3", Turkish, "b1c3", nil},
		{"tr knight capture", knightPawn, "Axb5", Turkish, "c3b5", nil},
		{"tr a-pawn capture", knightPawn, "axb5", Turkish, "a4b5", nil},
		{"tr en passant", enPassant, "exd6", Turkish, "e5d6", nil},
		{"tr promote to queen", promote, "e8=V", Turkish, "e7e8q", nil},
		{"tr promote to rook", promote, "e8=K", Turkish, "e7e8r", nil},
		{"tr promote to bishop", promote, "e8=F", Turkish, "e7e8b", nil},
		{"tr promote to knight", promote, "e8=A", Turkish, "e7e8n", nil},
		{"tr promote English letter", promote, "e8=Q", Turkish, "e7e8q", nil},
		{"tr promote to king", promote, "e8=Ş", Turkish, "", ErrInvalidSAN},
		{"tr castle", castle, "O-O", Turkish, "e1g1", nil},
		{"tr castle zeros", castle, "0-0", Turkish, "e1g1", nil},
		{"tr castle long", castle, "O-O-O", Turkish, "e1c1", nil},
		{"tr lower-case ş", kings, "şe2", Turkish, "", ErrInvalidSAN},

		{"en K is the king", rookVsKing, "Kd2", English, "e1d2", nil},
		{"en Ş is the king", kings, "Şe2", English, "e1e2", nil},
		{"en V is the queen", queen, "Vd1", English, "d4d1", nil},
		{"en F is the bishop", bishop, "Fb5", English, "f1b5", nil},
		{"en A is the knight", knights, "Ac3", English, "b1c3", nil},
		{"en b-pawn, not bishop", "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "bxc3", English, "b2c3", nil},
		{"en bishop, not b-pawn", "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "Bxc3", English, "d2c3", nil},
		{"en K is never the rook", rookTakes, "Kxe8", English, "", ErrIllegalMove},
		{"en promote to K", promote, "e8=K", English, "", ErrInvalidSAN},
		{"en promote to P", promote, "e8=P", English, "", ErrInvalidSAN},

		{"promotion without =", promote, "e8Q", English, "e7e8q", nil},
		{"promotion lower-case after =", promote, "e8=n", English, "e7e8n", nil},
		{"capture promotion without =", promoTake, "exd8N", English, "e7d8n", nil},
		{"capture promotion without x", promoTake, "ed8=R", English, "e7d8r", nil},
		{"annotation !?", knights, "Nf3!?", English, "g1f3", nil},
		{"annotation ?!", knights, "Nf3?!", English, "g1f3", nil},
		{"annotation !!", knights, "Nf3!!", English, "g1f3", nil},
		{"annotation ??", knights, "Nf3??", English, "g1f3", nil},
		{"annotation after check mark", check, "Qd8+!", English, "d1d8", nil},
		{"castle long zeros", castle, "0-0-0", English, "e1c1", nil},
		{"castle with check mark", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O+", English, "e1g1", nil},
		{"missing check mark", check, "Qd8", English, "d1d8", nil},
		{"mate mark for a check", check, "Qd8#", English, "d1d8", nil},
		{"superfluous check mark", knights, "Nf3+", English, "g1f3", nil},
		{"missing x", capture, "Nd5", English, "c3d5", nil},
		{"superfluous file", knights, "Ngf3", English, "g1f3", nil},
		{"superfluous rank", knights, "N1f3", English, "g1f3", nil},
		{"superfluous square", knights, "Ng1f3", English, "g1f3", nil},
		{"long algebraic", knights, "Ng1-f3", English, "g1f3", nil},
		{"long algebraic pawn", StartFEN, "e2-e4", English, "e2e4", nil},
		{"long algebraic capture", capture, "Nc3xd5", English, "c3d5", nil},
		{"long algebraic pawn capture", enPassant, "e5xd6", English, "e5d6", nil},
		{"UCI is not SAN", StartFEN, "e2e4", English, "", ErrInvalidSAN},
		{"UCI castling is not SAN", castle, "e1g1", English, "", ErrInvalidSAN},
		{"UCI promotion is not SAN", promote, "e7e8q", English, "", ErrInvalidSAN},
		{"pawn double step", StartFEN, "e4", English, "e2e4", nil},
		{"pawn capture without x", enPassant, "ed6", English, "e5d6", nil},

		{"ambiguous knights", knightsAmb, "Nd2", English, "", ErrAmbiguousSAN},
		{"ambiguous with rank", knightsAmb, "N1d2", English, "", ErrAmbiguousSAN},
		{"disambiguated by file", knightsAmb, "Nfd2", English, "f1d2", nil},
		{"wrong disambiguation", knights, "Nhf3", English, "", ErrIllegalMove},
		{"x with nothing to capture", knights, "Nxf3", English, "", ErrIllegalMove},
		{"pawn x with nothing to capture", StartFEN, "exe3", English, "", ErrIllegalMove},
		{"king step is not castling", castle, "Kg1", English, "", ErrIllegalMove},
		{"pawn push is not a capture", capture, "c4", English, "", ErrIllegalMove},
		{"black's move in white's turn", StartFEN, "e5", English, "", ErrIllegalMove},
		{"empty", StartFEN, "", English, "", ErrInvalidSAN},
		{"only a check mark", StartFEN, "+", English, "", ErrInvalidSAN},
		{"three annotation marks", knights, "Nf3!!!", English, "", ErrInvalidSAN},
		{"mark before annotation reversed", check, "Qd8!+", English, "", ErrInvalidSAN},
		{"two check marks", check, "Qd8++", English, "", ErrInvalidSAN},
		{"space", StartFEN, "e4 ", English, "", ErrInvalidSAN},
		{"pawn letter", StartFEN, "Pe4", English, "", ErrInvalidSAN},
		{"unknown letter", StartFEN, "Xe4", English, "", ErrInvalidSAN},
		{"piece only", StartFEN, "N", English, "", ErrInvalidSAN},
		{"file off the board", StartFEN, "Ni3", English, "", ErrInvalidSAN},
		{"rank off the board", StartFEN, "Nf9", English, "", ErrInvalidSAN},
		{"pawn capture without file", capture, "xd5", English, "", ErrInvalidSAN},
		{"pawn with rank hint", StartFEN, "2e4", English, "", ErrInvalidSAN},
		{"dash without origin square", knights, "N-f3", English, "", ErrInvalidSAN},
		{"piece promotes", promote, "Ke2=Q", English, "", ErrInvalidSAN},
		{"promotion before last rank", StartFEN, "e4=Q", English, "", ErrInvalidSAN},
		{"promotion missing", promote, "e8", English, "", ErrInvalidSAN},
		{"= without piece", promote, "e8=", English, "", ErrInvalidSAN},
		{"castle lower-case", castle, "o-o", English, "", ErrInvalidSAN},
		{"castle mixed", castle, "O-0", English, "", ErrInvalidSAN},
		{"castle without right", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", English, "", ErrIllegalMove},
		{"invalid UTF-8", StartFEN, "N\xc5f3", English, "", ErrInvalidSAN},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := sanFEN(t, tc.fen)
			m, err := p.ParseSAN(tc.san, tc.letters)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("ParseSAN(%q, %v) = %v, %v, want an error wrapping %v", tc.san, tc.letters, m, err, tc.err)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.san)) {
					t.Errorf("ParseSAN(%q, %v) error %q does not name the move", tc.san, tc.letters, err)
				}
				return
			}
			if err != nil || m.String() != tc.want {
				t.Fatalf("ParseSAN(%q, %v) = %v, %v, want %s", tc.san, tc.letters, m, err, tc.want)
			}
		})
	}
}

func TestSANWrite(t *testing.T) {
	tests := []struct {
		fen     string
		uci     string
		letters Letters
		want    string
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2", Turkish, "Şe2"},
		{"4r1k1/8/8/8/8/8/8/4R1K1 w - - 0 1", "e1e8", Turkish, "Kxe8+"},
		{"4r1k1/8/6K1/8/8/8/8/4R3 w - - 0 1", "e1e8", English, "Rxe8#"},
		{"4r1k1/8/6K1/8/8/8/8/4R3 w - - 0 1", "e1e8", Turkish, "Kxe8#"},
		{"k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", Turkish, "e8=V+"},
		{"k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r", Turkish, "e8=K+"},
		{"k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", Turkish, "e8=A"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", Turkish, "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", English, "O-O-O"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", English, "exd6"},
		{"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2", Turkish, "Abd2"},
		// The rival knight on e4 is pinned by the rook on e8: no disambiguator.
		{"4r1k1/8/8/8/4N3/8/8/1N2K3 w - - 0 1", "b1d2", English, "Nd2"},
		// Three queens: file and rank are both shared, so the whole square.
		{"6k1/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1", "a4d1", English, "Qa4d1"},
		{"6k1/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1", "a4d1", Turkish, "Va4d1"},
		{"6k1/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1", "a1d1", English, "Q1d1"},
		{"6k1/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1", "d4d1", English, "Qdd1"},
		// Not a legal move at all: SAN does not panic, it falls back to UCI.
		{StartFEN, "e4e5", English, "e4e5"},
	}
	for _, tc := range tests {
		p := sanFEN(t, tc.fen)
		var m Move
		for _, lm := range p.LegalMoves() {
			if lm.String() == tc.uci {
				m = lm
			}
		}
		if m == NullMove { // the fallback case: build the move by hand
			from, _ := ParseSquare(tc.uci[:2])
			to, _ := ParseSquare(tc.uci[2:4])
			m = NewMove(from, to)
		}
		if got := p.SAN(m, tc.letters); got != tc.want {
			t.Errorf("SAN(%s, %v) = %q, want %q in %s", tc.uci, tc.letters, got, tc.want, tc.fen)
		}
	}
}

func TestLetters(t *testing.T) {
	for _, tc := range []struct {
		code string
		want Letters
	}{{"en", English}, {"tr", Turkish}, {"EN", English}, {"Tr", Turkish}} {
		got, err := ParseLetters(tc.code)
		if err != nil || got != tc.want {
			t.Errorf("ParseLetters(%q) = %v, %v, want %v", tc.code, got, err, tc.want)
		}
		if want := strings.ToLower(tc.code); got.String() != want {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), want)
		}
	}
	for _, code := range []string{"", "de", "english", "t"} {
		if got, err := ParseLetters(code); err == nil {
			t.Errorf("ParseLetters(%q) = %v, nil, want an error", code, got)
		}
	}
	want := map[Letters]string{English: "KQRBN", Turkish: "ŞVKFA"}
	for l, letters := range want {
		var b strings.Builder
		for _, pt := range []PieceType{King, Queen, Rook, Bishop, Knight} {
			b.WriteString(l.PieceLetter(pt))
		}
		if got := b.String(); got != letters {
			t.Errorf("%v letters K Q R B N = %q, want %q", l, got, letters)
		}
		if got := l.PieceLetter(Pawn); got != "" {
			t.Errorf("%v.PieceLetter(Pawn) = %q, want \"\"", l, got)
		}
	}
}

// TestSANAllocs holds SAN to the one allocation of its result and ParseSAN to
// none, since bots and move lists call them for every move.
func TestSANAllocs(t *testing.T) {
	p := sanFEN(t, StartFEN)
	q := sanFEN(t, "6k1/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1")
	mate := sanLegal(t, sanFEN(t, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"), "h5f7")
	mateP := sanFEN(t, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
	queenMove := sanLegal(t, q, "a4d1")
	if n := testing.AllocsPerRun(100, func() { _ = mateP.SAN(mate, Turkish) }); n > 1 {
		t.Errorf("SAN of a mate allocates %v times, want at most 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = q.SAN(queenMove, English) }); n > 1 {
		t.Errorf("SAN with disambiguation allocates %v times, want at most 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = p.ParseSAN("Nf3", English) }); n > 0 {
		t.Errorf("ParseSAN allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = p.ParseSAN("Af3+", Turkish) }); n > 0 {
		t.Errorf("ParseSAN in Turkish allocates %v times, want 0", n)
	}
}

func BenchmarkSAN(b *testing.B) {
	p := sanFEN(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	moves := p.LegalMoves()
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range moves {
			_ = p.SAN(m, English)
		}
	}
}

func BenchmarkParseSAN(b *testing.B) {
	p := sanFEN(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	var sans []string
	for _, m := range p.LegalMoves() {
		sans = append(sans, p.SAN(m, English))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range sans {
			if _, err := p.ParseSAN(s, English); err != nil {
				b.Fatal(err)
			}
		}
	}
}
