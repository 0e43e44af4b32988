package chess

import "testing"

func TestPlayNull(t *testing.T) {
	tests := []struct {
		name, fen, want string
	}{
		{"white passes", StartFEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1"},
		{"black passes", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"},
		{"en passant cleared", "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			q := p.PlayNull()
			if got := q.FEN(); got != tc.want {
				t.Errorf("PlayNull(%s) = %s, want %s", tc.fen, got, tc.want)
			}
			want, _ := ParseFEN(tc.want)
			if q.Hash() != want.Hash() {
				t.Errorf("PlayNull(%s).Hash() = %x, want %x", tc.fen, q.Hash(), want.Hash())
			}
			if p.FEN() != tc.fen {
				t.Errorf("PlayNull changed its receiver to %s", p.FEN())
			}
		})
	}
}

func TestIsCapture(t *testing.T) {
	p, err := ParseFEN("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		uci  string
		want bool
	}{
		{"e5d6", true},  // en passant
		{"a1a8", true},  // rook takes rook
		{"e1g1", false}, // castling
		{"e5e6", false},
		{"a1a2", false},
	}
	for _, tc := range tests {
		m, err := p.ParseUCI(tc.uci)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.IsCapture(m); got != tc.want {
			t.Errorf("IsCapture(%s) = %v, want %v", tc.uci, got, tc.want)
		}
	}
}

func TestAttackersTo(t *testing.T) {
	p, err := ParseFEN("4k3/8/8/3p4/8/5N2/3R4/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	got := p.AttackersTo(D5, p.Occupied())
	want := SquareBB(D2) // the knight on f3 does not reach d5; the rook does
	if got != want {
		t.Errorf("AttackersTo(d5) = %x, want %x", got, want)
	}
	// With the rook gone from the blockers it no longer attacks.
	if got := p.AttackersTo(D5, p.Occupied()&^SquareBB(D2)); got != 0 {
		t.Errorf("AttackersTo(d5, without d2) = %x, want 0", got)
	}
}
