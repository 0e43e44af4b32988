package views

import "satranc/engine/chess"

// MoveList is a game's moves in SAN as the rows of the move list. A game
// stream renders the same game after every move: it keeps its list and
// adds each new move to it, where building the rows afresh for every
// view was a twelfth of the server's garbage at 5,000 games.
type MoveList struct {
	rows   []MoveRow
	plies  int
	number int         // of the next move
	side   chess.Color // to make the next move
}

// NewMoveList starts the move list of a game from start, with room for
// plies moves.
func NewMoveList(start chess.Position, plies int) MoveList {
	return MoveList{
		rows:   make([]MoveRow, 0, plies/2+1),
		number: start.FullmoveNumber(),
		side:   start.SideToMove(),
	}
}

// Add appends the next move, in SAN. A Black move completes the last row
// in place: rows returned before see it too, which is why a view must be
// rendered before its list changes.
func (l *MoveList) Add(san string) {
	if l.side == chess.White || len(l.rows) == 0 {
		l.rows = append(l.rows, MoveRow{Number: l.number})
	}
	row := &l.rows[len(l.rows)-1]
	if l.side == chess.White {
		row.White = san
	} else {
		row.Black = san
		l.number++
	}
	l.side = l.side.Other()
	l.plies++
}

// Plies returns the number of moves in the list.
func (l *MoveList) Plies() int { return l.plies }

// Rows returns the rows of the move list, read only.
func (l *MoveList) Rows() []MoveRow { return l.rows }
