package views

import (
	"slices"
	"testing"

	"satranc/engine/chess"
)

// rowsOf collects a list's rows.
func rowsOf(l MoveList) []MoveRow {
	var rows []MoveRow
	for _, row := range l.Rows() {
		rows = append(rows, row)
	}
	return rows
}

// TestMoveList: moves go into numbered rows, White's then Black's, also
// for a game that starts with Black to move, and a list made from a
// prefix of a game's moves sees none of those added after it.
func TestMoveList(t *testing.T) {
	san := []string{"e4", "e5", "Nf3"}
	list := NewMoveList(chess.StartPosition(), san)
	want := []MoveRow{{Number: 1, White: "e4", Black: "e5"}, {Number: 2, White: "Nf3"}}
	if rows := rowsOf(list); !slices.Equal(rows, want) || list.Plies() != 3 || list.Len() != 2 || list.Last() != "Nf3" {
		t.Errorf("from the start: %+v (%d plies, %d rows, last %q), want %+v (3, 2, Nf3)", rows, list.Plies(), list.Len(), list.Last(), want)
	}
	more := append(san, "Nc6")
	if got := list.Row(1); got != want[1] {
		t.Errorf("row 2 after Black's move was added beyond the list: %+v, want %+v", got, want[1])
	}
	if got := NewMoveList(chess.StartPosition(), more).Row(1); got != (MoveRow{2, "Nf3", "Nc6"}) {
		t.Errorf("row 2 of the longer list: %+v", got)
	}
	if empty := NewMoveList(chess.StartPosition(), nil); empty.Len() != 0 || empty.Last() != "" || len(rowsOf(empty)) != 0 {
		t.Errorf("no moves: %d rows, last %q", empty.Len(), empty.Last())
	}

	blackToMove, err := chess.ParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 12")
	if err != nil {
		t.Fatal(err)
	}
	list = NewMoveList(blackToMove, []string{"Nf6", "Nc3", "Bc5"})
	want = []MoveRow{{Number: 12, Black: "Nf6"}, {Number: 13, White: "Nc3", Black: "Bc5"}}
	if got := rowsOf(list); !slices.Equal(got, want) || list.Len() != 2 {
		t.Errorf("from Black to move at 12: %+v, want %+v", got, want)
	}
	list = NewMoveList(blackToMove, []string{"Nf6", "Nc3"})
	want = []MoveRow{{Number: 12, Black: "Nf6"}, {Number: 13, White: "Nc3"}}
	if got := rowsOf(list); !slices.Equal(got, want) || list.Len() != 2 {
		t.Errorf("from Black to move at 12, two moves: %+v, want %+v", got, want)
	}
}
