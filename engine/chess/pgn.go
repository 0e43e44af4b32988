package chess

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// PGN (Portable Game Notation) support, after the PGN standard of 1994
// (Steven J. Edwards, "Portable Game Notation Specification and Implementation
// Guide"), sections 8 (import format) and 8.2 (export format), with the
// [%clk] comment command of the PGN Specification Supplement (Alan Cowderoy et
// al., 2001) that lichess and chess.com write.
//
// The reader is in pgn_read.go, the writer in pgn_write.go.

// ErrInvalidPGN is wrapped by errors for text that is not PGN: an
// unterminated comment, tag or variation, a stray character, a bad NAG.
var ErrInvalidPGN = errors.New("chess: invalid PGN")

// PGNTag is one tag pair, such as [Event "Casual game"].
type PGNTag struct {
	Name, Value string
}

// PGNMove is one move of a game's main line with its annotations.
type PGNMove struct {
	// Move is the move itself.
	Move Move
	// SAN is the move in standard algebraic notation, written in the
	// letters the reader was given (normalised: "e2e4" or "0-0" in the
	// source become "e4" and "O-O").
	SAN string
	// Comment is the text of the comments that follow the move, without the
	// braces and without the [%clk] command, whitespace collapsed to single
	// spaces; several comments are joined with a space.
	Comment string
	// Clock is the clock time left after the move, from [%clk h:mm:ss] in a
	// comment; valid only if HasClock.
	Clock time.Duration
	// HasClock reports whether the move had a [%clk] command.
	HasClock bool
	// NAGs are the numeric annotation glyphs ($1, or ! written as $1, ? as
	// $2, !! as $3, ?? as $4, !? as $5, ?! as $6), in order.
	NAGs []int
}

// PGNGame is one game of a PGN file: its tags, start position, main line and
// result. Variations are not kept.
type PGNGame struct {
	// Tags are the tag pairs in the order they were read. A tag name that
	// occurs twice keeps the last value, in the place of the first.
	Tags []PGNTag
	// Start is the position before the first move: the FEN tag's position,
	// or the standard start. WritePGN treats the zero Position as the
	// standard start.
	Start Position
	// Comment is the text of the comments before the first move.
	Comment string
	// Moves is the main line.
	Moves []PGNMove
	// Result is the game termination marker: "1-0", "0-1", "1/2-1/2" or
	// "*". The reader takes it from the end of the movetext, else from the
	// Result tag, else "*".
	Result string
	// Record is the game replayed by the rules, set by the reader: its
	// Termination and Result tell how the rules ended the game, if they did.
	// WritePGN does not use it.
	Record *Game
}

// Tag returns the value of the tag name and whether the game has it.
func (g *PGNGame) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// SetTag sets the tag name to value, replacing its value if the game has the
// tag and adding it at the end otherwise.
func (g *PGNGame) SetTag(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, PGNTag{Name: name, Value: value})
}

// PGNError is an error in one game of a PGN text: a move that cannot be read
// or played, a bad FEN tag, or a syntax error.
type PGNError struct {
	// Game is the number of the game in the text, from 1.
	Game int
	// Line is the line of the text where the error was found, from 1.
	Line int
	// MoveNumber is the move number (as written in PGN, such as 12 in
	// "12... Nc6") of the offending move, or 0 if the error is not a move's.
	MoveNumber int
	// Color is the side that made the offending move.
	Color Color
	// SAN is the offending move as written in the text.
	SAN string
	// Err is the cause, such as an error wrapping ErrIllegalMove,
	// ErrInvalidSAN, ErrAmbiguousSAN, ErrMoveAfterEnd, ErrInvalidFEN or
	// ErrInvalidPGN.
	Err error
}

// Error returns a message such as
// `pgn: game 3, move 12 (black) "Nxe5": chess: illegal move: ...`.
func (e *PGNError) Error() string {
	if e.MoveNumber > 0 {
		return fmt.Sprintf("pgn: game %d, move %d (%s) %q: %v", e.Game, e.MoveNumber, e.Color, e.SAN, e.Err)
	}
	return fmt.Sprintf("pgn: game %d, line %d: %v", e.Game, e.Line, e.Err)
}

// Unwrap returns the cause.
func (e *PGNError) Unwrap() error { return e.Err }

// pgnResults are the four game termination markers.
var pgnResults = [...]string{"1-0", "0-1", "1/2-1/2", "*"}

func isPGNResult(s string) bool {
	for _, r := range pgnResults {
		if s == r {
			return true
		}
	}
	return false
}

// normalizeComment collapses runs of whitespace to one space and trims the
// ends, so that a comment reads back the same however the writer wraps it.
func normalizeComment(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
