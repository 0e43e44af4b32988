package bot

import (
	"strings"
	"testing"

	"satranc/engine/chess"
)

// mirror returns the FEN with the board flipped top to bottom and the
// colours swapped: the same position seen from the other side.
func mirror(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	f[0] = swap(strings.Join(ranks, "/"))
	if f[1] == "w" {
		f[1] = "b"
	} else {
		f[1] = "w"
	}
	if f[2] != "-" {
		c := swap(f[2])
		// Keep the usual KQkq order.
		var b strings.Builder
		for _, r := range "KQkq" {
			if strings.ContainsRune(c, r) {
				b.WriteRune(r)
			}
		}
		f[2] = b.String()
	}
	if f[3] != "-" {
		f[3] = f[3][:1] + string("87654321"[f[3][1]-'1'])
	}
	return strings.Join(f, " ")
}

func TestEvaluateSymmetric(t *testing.T) {
	for _, p := range randomPositions(300, 3) {
		fen := p.FEN()
		q := mustFEN(t, mirror(fen))
		if a, b := Evaluate(&p), Evaluate(&q); a != b {
			t.Fatalf("Evaluate(%s) = %d, but %d for its mirror %s", fen, a, b, q.FEN())
		}
	}
}

func TestEvaluate(t *testing.T) {
	tests := []struct {
		name     string
		fen      string
		min, max int
	}{
		{"start", chess.StartFEN, 0, 40},
		{"queen up", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 800, 2000},
		{"queen down", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1", -2000, -800},
		{"bare bishop is no win", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", -50, 150},
		{"passed pawn on the seventh", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", 150, 600},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		if got := Evaluate(&p); got < tc.min || got > tc.max {
			t.Errorf("Evaluate(%s) = %d, want %d..%d", tc.fen, got, tc.min, tc.max)
		}
	}
}

func TestSEE(t *testing.T) {
	tests := []struct {
		fen, uci string
		want     int
	}{
		{"4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100},         // free pawn
		{"4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100 - 500}, // defended pawn
		{"4k3/8/2p5/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},     // RxR PxR RxP: a rook for a rook, and a pawn
		{"4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5", 900},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		m, err := p.ParseUCI(tc.uci)
		if err != nil {
			t.Fatal(err)
		}
		if got := see(&p, m); got != tc.want {
			t.Errorf("see(%s, %s) = %d, want %d", tc.fen, tc.uci, got, tc.want)
		}
	}
}
