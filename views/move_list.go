package views

import (
	"iter"

	"satranc/engine/chess"
)

// MoveList is a game's moves in SAN as the rows of the move list. It reads
// the moves' SAN from a list it never changes, which the game's streams
// share (handlers/game_san.go): a view of a game copies nothing of its
// moves, where a list kept per stream grew with every move, times every
// viewer.
type MoveList struct {
	san    []string // one per ply, read only
	number int      // of the first row
	// blackFirst says the game started with Black to move: its first row
	// has no White move ("…").
	blackFirst bool
}

// NewMoveList returns the move list of a game from start whose moves are
// san, one per ply; the list reads san, which must not change.
func NewMoveList(start chess.Position, san []string) MoveList {
	return MoveList{san: san, number: start.FullmoveNumber(), blackFirst: start.SideToMove() == chess.Black}
}

// Plies returns the number of moves in the list.
func (l MoveList) Plies() int { return len(l.san) }

// Len returns the number of rows.
func (l MoveList) Len() int {
	n := len(l.san)
	if l.blackFirst && n > 0 {
		n++
	}
	return (n + 1) / 2
}

// Row returns row i: its number, White's move ("" for none: the first row
// of a game that started with Black to move) and Black's ("" until played).
func (l MoveList) Row(i int) MoveRow {
	white := 2 * i
	if l.blackFirst {
		white--
	}
	row := MoveRow{Number: l.number + i}
	if white >= 0 {
		row.White = l.san[white]
	}
	if black := white + 1; black < len(l.san) {
		row.Black = l.san[black]
	}
	return row
}

// Rows yields the rows in order, with their index.
func (l MoveList) Rows() iter.Seq2[int, MoveRow] {
	return func(yield func(int, MoveRow) bool) {
		for i := range l.Len() {
			if !yield(i, l.Row(i)) {
				return
			}
		}
	}
}

// Last returns the latest move, "" before the first.
func (l MoveList) Last() string {
	if len(l.san) == 0 {
		return ""
	}
	return l.san[len(l.san)-1]
}
