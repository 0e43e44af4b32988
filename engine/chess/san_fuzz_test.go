package chess

import (
	"errors"
	"testing"
)

// FuzzSAN reads arbitrary text as SAN in arbitrary positions. ParseSAN must
// never panic, must return only legal moves, and must explain every failure
// with one of the three SAN errors; and in every position it reaches, each
// legal move must be read back from its own SAN in both languages.
func FuzzSAN(f *testing.F) {
	for _, tc := range sanReadJSONL[sanCase](f, "testdata/san.jsonl") {
		f.Add(tc.FEN, tc.SAN)
	}
	for _, tc := range sanReadJSONL[sanInvalidCase](f, "testdata/san_invalid.jsonl") {
		f.Add(tc.FEN, tc.SAN)
	}
	for _, s := range []string{"Şe2", "Kxe8", "e8=V", "e8K", "0-0-0", "Nf3!?", "Ng1-f3", "e8=q", "exd6+", "Axb5", "Fxe5"} {
		f.Add(StartFEN, s)
	}

	f.Fuzz(func(t *testing.T, fen, s string) {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Skip()
		}
		legal := p.LegalMoves()
		for _, l := range []Letters{English, Turkish} {
			m, err := p.ParseSAN(s, l)
			if err != nil {
				if !errors.Is(err, ErrInvalidSAN) && !errors.Is(err, ErrAmbiguousSAN) && !errors.Is(err, ErrIllegalMove) {
					t.Errorf("ParseSAN(%q, %v) error %v wraps none of the SAN errors", s, l, err)
				}
				continue
			}
			if !sanContains(legal, m) {
				t.Errorf("ParseSAN(%q, %v) = %v, not a legal move in %s", s, l, m, fen)
			}
		}
		for _, m := range legal {
			for _, l := range []Letters{English, Turkish} {
				text := p.SAN(m, l)
				if got, err := p.ParseSAN(text, l); err != nil || got != m {
					t.Errorf("ParseSAN(SAN(%v, %v) = %q) = %v, %v in %s", m, l, text, got, err, fen)
				}
			}
		}
	})
}

func sanContains(moves []Move, m Move) bool {
	for _, lm := range moves {
		if lm == m {
			return true
		}
	}
	return false
}
