package views

import "testing"

func TestLastMoveCue(t *testing.T) {
	cases := []struct {
		name string
		san  []string
		want string
	}{
		{"no move", nil, ""},
		{"White's move", []string{"e4"}, "move"},
		{"Black's move", []string{"e4", "d5"}, "move"},
		{"capture", []string{"e4", "d5", "exd5"}, "capture"},
		{"capture in Turkish letters", []string{"e4", "d5", "exd5", "Vxd5"}, "capture"},
		{"check", []string{"e4", "f6", "Qh5+"}, "check"},
		{"capture with check", []string{"Bxf7+"}, "check"},
		{"mate", []string{"f3", "e5", "g4", "Qh4#"}, "check"},
		{"castling", []string{"O-O"}, "move"},
		{"a game starting with Black", []string{"e5"}, "move"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := (GameView{Moves: MoveList{san: tc.san}}).LastMoveCue(); got != tc.want {
				t.Errorf("LastMoveCue(%v) = %q, want %q", tc.san, got, tc.want)
			}
		})
	}
}
