package game

import (
	"fmt"

	"satranc/engine/chess"
)

// Status is where a game is in its life.
type Status uint8

// The statuses. A Waiting game has an empty seat (a private game before the
// friend joins); Finished and Aborted games are over.
const (
	Waiting Status = iota
	Active
	Finished
	Aborted
)

var statusNames = [...]string{"waiting", "active", "finished", "aborted"}

// String returns "waiting", "active", "finished" or "aborted".
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Over reports whether the game has ended.
func (s Status) Over() bool { return s >= Finished }

// ParseStatus reads a status as String writes it.
func ParseStatus(s string) (Status, error) {
	for i, n := range statusNames {
		if n == s {
			return Status(i), nil
		}
	}
	return Waiting, fmt.Errorf("%w: status %q", ErrInvalid, s)
}

// Result is the score of a game.
type Result uint8

// The results.
const (
	NoResult Result = iota
	WhiteWins
	BlackWins
	Draw
)

var resultNames = [...]string{"*", "1-0", "0-1", "1/2-1/2"}

// String returns the PGN result: "*", "1-0", "0-1" or "1/2-1/2".
func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("Result(%d)", uint8(r))
}

// ParseResult reads a result as String writes it.
func ParseResult(s string) (Result, error) {
	for i, n := range resultNames {
		if n == s {
			return Result(i), nil
		}
	}
	return NoResult, fmt.Errorf("%w: result %q", ErrInvalid, s)
}

// winFor returns the result in which side wins.
func winFor(side chess.Color) Result {
	if side == chess.White {
		return WhiteWins
	}
	return BlackWins
}

// Reason says why a game ended.
type Reason uint8

// The reasons a game ends (SPEC sections 3 and 8).
const (
	NoReason Reason = iota
	Checkmate
	Stalemate
	Repetition            // threefold repetition
	FiftyMoves            // fifty-move rule
	InsufficientMaterial  // neither side can mate
	Agreement             // draw offered and accepted
	Resignation           // Outcome.Side resigned
	Timeout               // Outcome.Side ran out of time and lost
	TimeoutVsInsufficient // Outcome.Side ran out of time against a lone king or king and minor: a draw
	LeftTable             // Outcome.Side left the table
	Disconnected          // Outcome.Side stayed disconnected past the grace period
	Abort                 // Outcome.Side aborted the game (Outcome.Cause says how)
	InviteExpired         // nobody accepted the invitation of Outcome.Side's private game in time
	NoFirstMove           // Outcome.Side did not make its first move in time (SPEC section 4): aborted
	InviteDeclined        // the friend declined the invitation of Outcome.Side's private game
)

var reasonNames = [...]string{
	"", "checkmate", "stalemate", "repetition", "fifty_moves", "insufficient_material",
	"agreement", "resignation", "timeout", "timeout_vs_insufficient", "left_table",
	"disconnected", "aborted", "invite_expired", "no_first_move", "invite_declined",
}

// String returns the reason in snake case, such as "checkmate",
// "timeout_vs_insufficient" or "left_table"; it is stored in the database
// and suits translation keys. NoReason is "".
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// ParseReason reads a reason as String writes it.
func ParseReason(s string) (Reason, error) {
	for i, n := range reasonNames {
		if n == s {
			return Reason(i), nil
		}
	}
	return NoReason, fmt.Errorf("%w: reason %q", ErrInvalid, s)
}

// reasonOf maps the rules' terminations to reasons.
func reasonOf(t chess.Termination) Reason {
	switch t {
	case chess.Checkmate:
		return Checkmate
	case chess.Stalemate:
		return Stalemate
	case chess.ThreefoldRepetition:
		return Repetition
	case chess.FiftyMoveRule:
		return FiftyMoves
	case chess.InsufficientMaterial:
		return InsufficientMaterial
	}
	return NoReason
}

// Outcome is how a game ended.
type Outcome struct {
	Result Result
	Reason Reason
	// Side is the side the reason is about: the side checkmated, that
	// resigned, ran out of time, left, disconnected or aborted. It means
	// nothing for the draws other than TimeoutVsInsufficient.
	Side chess.Color
	// Cause is, for an aborted game, what ended it: Resignation, Timeout,
	// LeftTable or Disconnected. It is not stored, so a game loaded from the
	// database may have NoReason here.
	Cause Reason
}

// Winner returns the winning side, if the game has one.
func (o Outcome) Winner() (chess.Color, bool) {
	switch o.Result {
	case WhiteWins:
		return chess.White, true
	case BlackWins:
		return chess.Black, true
	}
	return chess.White, false
}

// IsAborted reports whether the game was aborted: by a player early in
// the game, because a player did not make their first move in time, or
// because its invitation expired or was declined. An aborted game counts
// nowhere (SPEC section 3).
func (o Outcome) IsAborted() bool {
	return o.Reason == Abort || o.Reason == NoFirstMove || o.IsCancelled()
}

// IsCancelled reports whether the game never started: its invitation
// expired or the friend declined it.
func (o Outcome) IsCancelled() bool {
	return o.Reason == InviteExpired || o.Reason == InviteDeclined
}

// String describes the outcome, such as "0-1 resignation by white".
func (o Outcome) String() string {
	switch o.Reason {
	case NoReason:
		return o.Result.String()
	case Checkmate, Resignation, Timeout, TimeoutVsInsufficient, LeftTable, Disconnected:
		return fmt.Sprintf("%s %s (%s)", o.Result, o.Reason, o.Side)
	case Abort:
		return fmt.Sprintf("aborted by %s (%s)", o.Side, o.Cause)
	case NoFirstMove:
		return fmt.Sprintf("aborted: no first move by %s", o.Side)
	case InviteExpired:
		return fmt.Sprintf("invitation of %s expired", o.Side)
	case InviteDeclined:
		return fmt.Sprintf("invitation of %s declined", o.Side)
	}
	return fmt.Sprintf("%s %s", o.Result, o.Reason)
}
