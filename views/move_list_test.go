package views

import (
	"slices"
	"testing"

	"satranc/engine/chess"
)

// TestMoveList: moves go into numbered rows, White's then Black's, also
// for a game that starts with Black to move; a row completed later is
// seen through the rows taken before.
func TestMoveList(t *testing.T) {
	list := NewMoveList(chess.StartPosition(), 0)
	for _, san := range []string{"e4", "e5", "Nf3"} {
		list.Add(san)
	}
	want := []MoveRow{{Number: 1, White: "e4", Black: "e5"}, {Number: 2, White: "Nf3"}}
	rows := list.Rows()
	if !slices.Equal(rows, want) || list.Plies() != 3 {
		t.Errorf("from the start: %+v (%d plies), want %+v (3)", rows, list.Plies(), want)
	}
	list.Add("Nc6")
	if rows[1].Black != "Nc6" {
		t.Errorf("rows taken before Black's move: %+v, want Nc6 in row 2", rows)
	}

	blackToMove, err := chess.ParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 12")
	if err != nil {
		t.Fatal(err)
	}
	list = NewMoveList(blackToMove, 3)
	for _, san := range []string{"Nf6", "Nc3", "Bc5"} {
		list.Add(san)
	}
	want = []MoveRow{{Number: 12, Black: "Nf6"}, {Number: 13, White: "Nc3", Black: "Bc5"}}
	if got := list.Rows(); !slices.Equal(got, want) {
		t.Errorf("from Black to move at 12: %+v, want %+v", got, want)
	}
}
