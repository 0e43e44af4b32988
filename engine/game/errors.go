package game

import "errors"

// Sentinel errors; methods wrap them with %w and context.
var (
	// ErrGameOver: the game has ended (perhaps just now, by the clock).
	ErrGameOver = errors.New("game: game is over")
	// ErrNotStarted: the game is still waiting for its second player.
	ErrNotStarted = errors.New("game: game has not started")
	// ErrNotYourTurn: a move by the side not to move.
	ErrNotYourTurn = errors.New("game: not your turn")
	// ErrStalePly: the move was made against another ply than the current
	// one: a duplicated, replayed or outdated request.
	ErrStalePly = errors.New("game: stale ply")
	// ErrDrawNotAllowed: a draw offer before both sides have moved, or a
	// second offer in the same move.
	ErrDrawNotAllowed = errors.New("game: draw offer not allowed")
	// ErrNoDrawOffer: accepting or declining when the opponent offers none.
	ErrNoDrawOffer = errors.New("game: no draw offer")
	// ErrSeatTaken: joining a game without an empty seat, or one's own game.
	ErrSeatTaken = errors.New("game: seat taken")
	// ErrInvalid: a malformed value (level, status, result, reason, record).
	ErrInvalid = errors.New("game: invalid")
)
