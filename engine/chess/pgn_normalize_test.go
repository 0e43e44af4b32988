package chess

import (
	"reflect"
	"strings"
	"testing"
)

func readOnePGN(t *testing.T, text string, l Letters) *PGNGame {
	t.Helper()
	g, err := NewPGNReader(strings.NewReader(text), l).Next()
	if err != nil {
		t.Fatalf("Next(%q): %v", text, err)
	}
	return g
}

func TestPGNGameNormalize(t *testing.T) {
	tests := []struct {
		name, in, result, termination string
	}{
		{"mate overrides the input's result", "[Result \"*\"]\n1. f3 e5 2. g4 Qh4# *", "0-1", "checkmate"},
		{"resignation kept", "1. d4 d5 1-0", "1-0", "unterminated"},
		{"stalemate", "[FEN \"7k/8/6Q1/8/8/8/8/K7 w - - 0 1\"]\n1. Qf7 *", "1/2-1/2", "stalemate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := readOnePGN(t, tc.in, English).Normalize()
			if g.Result != tc.result {
				t.Errorf("Result = %q, want %q", g.Result, tc.result)
			}
			if v, _ := g.Tag("Result"); v != tc.result {
				t.Errorf("Result tag = %q, want %q", v, tc.result)
			}
			if v, _ := g.Tag("Termination"); v != tc.termination {
				t.Errorf("Termination tag = %q, want %q", v, tc.termination)
			}
		})
	}
}

func TestPGNGameSummary(t *testing.T) {
	g := readOnePGN(t, "1. f3 e5 2. g4 Qh4# *", English)
	got := g.Summary(Turkish)
	want := PGNSummary{
		SAN: []string{"f3", "e5", "g4", "Vh4#"}, UCI: []string{"f2f3", "e7e5", "g2g4", "d8h4"},
		FEN: "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", End: "checkmate", Result: "0-1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Summary(Turkish) = %+v, want %+v", got, want)
	}
}
