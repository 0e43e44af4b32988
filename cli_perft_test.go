package main

import (
	"context"
	"strings"
	"testing"
)

func TestRunPerft(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		lastLine string
		contains []string
	}{
		{"start depth 3", []string{"--depth", "3"}, 0, "nodes 8902", nil},
		{"kiwipete divide", []string{"--depth", "2", "--divide", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
			0, "nodes 2039", []string{"e1g1: 43\n", "e1c1: 43\n", "a2a4: 44\n"}},
		{"checkmated", []string{"--depth", "1", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}, 0, "nodes 0", nil},
		{"missing depth", nil, 2, "", nil},
		{"depth zero", []string{"--depth", "0"}, 2, "", nil},
		{"stray argument", []string{"--depth", "1", "extra"}, 2, "", nil},
		{"bad FEN", []string{"--depth", "1", "--fen", "8/8/8 w - - 0 1"}, 1, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			code := runPerft(context.Background(), tc.args, &out, &errOut)
			if code != tc.code {
				t.Fatalf("runPerft(%q) = %d, want %d; stderr: %s", tc.args, code, tc.code, errOut.String())
			}
			if tc.code != 0 {
				if errOut.Len() == 0 {
					t.Errorf("runPerft(%q): no message on stderr", tc.args)
				}
				return
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if last := lines[len(lines)-1]; last != tc.lastLine {
				t.Errorf("runPerft(%q): last line %q, want %q", tc.args, last, tc.lastLine)
			}
			for _, s := range tc.contains {
				if !strings.Contains(out.String(), s) {
					t.Errorf("runPerft(%q): output lacks %q:\n%s", tc.args, s, out.String())
				}
			}
		})
	}
}
