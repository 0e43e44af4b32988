package views

import (
	"slices"
	"strings"
	"testing"

	"satranc/engine/chess"
)

func TestNewTryIts(t *testing.T) {
	tries, err := NewTryIts()
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name  string
		legal []string
		// after maps squares to the piece code on them after the correct
		// move ("" for empty).
		after map[string]string
	}{
		{"castling", []string{"e1e2", "e1f1", "e1g1"}, map[string]string{"e1": "", "f1": "wR", "g1": "wK", "h1": ""}},
		{"en_passant", []string{"e5d6", "e5e6"}, map[string]string{"e5": "", "d6": "wP", "d5": ""}},
		{"promotion", []string{"b7b8b", "b7b8n", "b7b8q", "b7b8r"}, map[string]string{"b7": "", "b8": "wQ"}},
	}
	if len(tries) != len(want) {
		t.Fatalf("NewTryIts() returned %d boards, want %d", len(tries), len(want))
	}
	for i, w := range want {
		tr := tries[i]
		if tr.Name != w.name {
			t.Errorf("board %d is %q, want %q", i, tr.Name, w.name)
			continue
		}
		legal := strings.Fields(tr.Board.Attrs["data-legal"].(string))
		slices.Sort(legal)
		if !slices.Equal(legal, w.legal) {
			t.Errorf("%s: data-legal = %v, want %v", tr.Name, legal, w.legal)
		}
		if tr.Board.Attrs["data-interactive"] != "true" || tr.Board.Attrs["data-color"] != "w" {
			t.Errorf("%s: attributes %v", tr.Name, tr.Board.Attrs)
		}
		if tr.Board.Picker == nil || *tr.Board.Picker != chess.White {
			t.Errorf("%s: no white promotion picker", tr.Name)
		}
		if len(tr.Results) != 1 {
			t.Fatalf("%s: %d results, want 1", tr.Name, len(tr.Results))
		}
		res := tr.Results[0].Board
		for _, row := range res.Rows {
			for _, sq := range row {
				if want, ok := w.after[sq.Name]; ok && sq.PieceCode() != want {
					t.Errorf("%s: after %s, %s holds %q, want %q", tr.Name, tr.Results[0].UCI, sq.Name, sq.PieceCode(), want)
				}
			}
		}
		if res.Attrs != nil || res.Picker != nil {
			t.Errorf("%s: the result board takes moves", tr.Name)
		}
	}
}

func TestNewTryItRejectsBadPuzzles(t *testing.T) {
	tests := []struct {
		name string
		pz   tryItPuzzle
	}{
		{"bad FEN", tryItPuzzle{name: "x", fen: "nonsense", mark: "e1", correct: []string{"e1g1"}}},
		{"bad mark", tryItPuzzle{name: "x", fen: chess.StartFEN, mark: "z9", correct: []string{"e2e4"}}},
		{"correct move illegal", tryItPuzzle{name: "x", fen: chess.StartFEN, mark: "e2", correct: []string{"e2e5"}}},
		{"correct move of another piece", tryItPuzzle{name: "x", fen: chess.StartFEN, mark: "e2", correct: []string{"d2d4"}}},
		{"bad last move", tryItPuzzle{name: "x", fen: chess.StartFEN, mark: "e2", correct: []string{"e2e4"}, last: "z"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := newTryIt(tc.pz); err == nil {
				t.Errorf("newTryIt(%+v) succeeded", tc.pz)
			}
		})
	}
}
