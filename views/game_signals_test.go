package views

import "testing"

func TestLastMoveCue(t *testing.T) {
	cases := []struct {
		name  string
		moves []MoveRow
		want  string
	}{
		{"no move", nil, ""},
		{"White's move", []MoveRow{{Number: 1, White: "e4"}}, "move"},
		{"Black's move", []MoveRow{{Number: 1, White: "e4", Black: "d5"}}, "move"},
		{"capture", []MoveRow{{Number: 1, White: "e4", Black: "d5"}, {Number: 2, White: "exd5"}}, "capture"},
		{"capture in Turkish letters", []MoveRow{{Number: 1, White: "e4", Black: "d5"}, {Number: 2, White: "exd5", Black: "Vxd5"}}, "capture"},
		{"check", []MoveRow{{Number: 1, White: "e4", Black: "f6"}, {Number: 2, White: "Qh5+"}}, "check"},
		{"capture with check", []MoveRow{{Number: 1, White: "Bxf7+"}}, "check"},
		{"mate", []MoveRow{{Number: 1, White: "f3", Black: "e5"}, {Number: 2, White: "g4", Black: "Qh4#"}}, "check"},
		{"castling", []MoveRow{{Number: 5, White: "O-O"}}, "move"},
		{"a game starting with Black", []MoveRow{{Number: 1, Black: "e5"}}, "move"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := (GameView{Moves: tc.moves}).LastMoveCue(); got != tc.want {
				t.Errorf("LastMoveCue(%v) = %q, want %q", tc.moves, got, tc.want)
			}
		})
	}
}
