package chess

import "testing"

// TestSquareNames: every square is named by its file letter and rank
// digit, and the name reads back as the square.
func TestSquareNames(t *testing.T) {
	for s := Square(0); s < NoSquare; s++ {
		want := string([]byte{'a' + byte(s.File()), '1' + byte(s.Rank())})
		if got := s.String(); got != want {
			t.Errorf("Square(%d).String() = %q, want %q", s, got, want)
		}
		if back, err := ParseSquare(s.String()); err != nil || back != s {
			t.Errorf("ParseSquare(%q) = %v, %v; want %d", s.String(), back, err, s)
		}
	}
	if got := NoSquare.String(); got != "-" {
		t.Errorf("NoSquare.String() = %q, want -", got)
	}
}
