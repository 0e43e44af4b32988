package views

import (
	"fmt"
	"slices"
	"strings"

	"github.com/a-h/templ"

	"satranc/engine/chess"
)

// TryIt is one "try it" board of the rules page: a position in which the
// reader moves one marked piece. static/js/tryit.js judges each move: a
// correct one is praised and the board shows the position after it, any
// other legal move of the marked piece is explained and taken back.
type TryIt struct {
	// Name names the board in anchors, test IDs and message IDs
	// (tryit.<Name>.task and so on): "castling".
	Name string
	// Board is the position, interactive for the side to move, with the
	// legal moves of the marked piece only and the promotion picker.
	Board BoardView
	// Mark is the square of the piece to move, such as "e1".
	Mark string
	// Correct lists the moves that solve the board, in UCI as board.js
	// sends them (castling as the king's two-square step, e1g1).
	Correct []string
	// Hints explain wrong moves; a wrong move no hint names gets the
	// board's general explanation, tryit.<Name>.wrong.
	Hints []TryItHint
	// Results are the boards after each correct move, shown once it is made.
	Results []TryItResult
}

// TryItHint is the explanation (a message ID) of some wrong moves.
type TryItHint struct {
	Moves   string // space-separated UCI moves
	Message string
}

// TryItResult is the board after a correct move.
type TryItResult struct {
	UCI   string
	Board BoardView
}

// Message IDs of a TryIt's texts.

// TaskID is the message ID of what the reader is asked to do.
func (t TryIt) TaskID() string { return "tryit." + t.Name + ".task" }

// PraiseID is the message ID of the praise for a correct move.
func (t TryIt) PraiseID() string { return "tryit." + t.Name + ".praise" }

// WrongID is the message ID of the general explanation of a wrong move.
func (t TryIt) WrongID() string { return "tryit." + t.Name + ".wrong" }

// CorrectMoves returns Correct as board.js's space-separated UCI list.
func (t TryIt) CorrectMoves() string { return strings.Join(t.Correct, " ") }

// tryItPuzzle is the definition of a TryIt (see tryItPuzzles).
type tryItPuzzle struct {
	name    string
	fen     string
	last    string // the move that led to the position, highlighted; "" for none
	mark    string
	correct []string
	hints   []TryItHint
}

// NewTryIts returns the rules page's try-it boards: castling, en passant
// and promotion. An error means a puzzle definition does not fit its
// position, which a test catches.
func NewTryIts() ([]TryIt, error) {
	out := make([]TryIt, 0, len(tryItPuzzles))
	for _, pz := range tryItPuzzles {
		t, err := newTryIt(pz)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// newTryIt builds the TryIt of pz: the legal moves of the marked piece come
// from engine/chess, and every correct move must be one of them.
func newTryIt(pz tryItPuzzle) (TryIt, error) {
	p, err := chess.ParseFEN(pz.fen)
	if err != nil {
		return TryIt{}, fmt.Errorf("views: try-it %s: %w", pz.name, err)
	}
	mark, err := chess.ParseSquare(pz.mark)
	if err != nil {
		return TryIt{}, fmt.Errorf("views: try-it %s: %w", pz.name, err)
	}
	side := p.SideToMove()
	t := TryIt{Name: pz.name, Mark: pz.mark, Correct: pz.correct, Hints: pz.hints}
	var legal []string
	for _, m := range p.LegalMoves() {
		if m.From() != mark {
			continue
		}
		legal = append(legal, m.String())
		if slices.Contains(pz.correct, m.String()) {
			after := p.Play(m)
			t.Results = append(t.Results, TryItResult{UCI: m.String(), Board: NewBoardView(after, side).WithLastMove(m)})
		}
	}
	if len(t.Results) != len(pz.correct) {
		return TryIt{}, fmt.Errorf("views: try-it %s: correct moves %v are not all legal moves of %s (%v)", pz.name, pz.correct, pz.mark, legal)
	}
	last := chess.NullMove
	if pz.last != "" {
		if len(pz.last) != 4 {
			return TryIt{}, fmt.Errorf("views: try-it %s: last move %q", pz.name, pz.last)
		}
		from, err1 := chess.ParseSquare(pz.last[:2])
		to, err2 := chess.ParseSquare(pz.last[2:])
		if err1 != nil || err2 != nil {
			return TryIt{}, fmt.Errorf("views: try-it %s: last move %q", pz.name, pz.last)
		}
		last = chess.NewMove(from, to)
	}
	t.Board = NewBoardView(p, side).WithLastMove(last)
	t.Board.Attrs = templ.Attributes{
		"data-interactive": "true",
		"data-color":       colorCode(side),
		"data-legal":       strings.Join(legal, " "),
	}
	t.Board.Picker = &side
	return t, nil
}

// colorCode returns the letter board.js uses for side c: "w" or "b".
func colorCode(c chess.Color) string {
	if c == chess.Black {
		return "b"
	}
	return "w"
}
