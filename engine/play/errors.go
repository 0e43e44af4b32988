package play

import "errors"

// Sentinel errors of the use cases. Errors of the game itself wrap the
// engine/game sentinels (game.ErrStalePly, game.ErrNotYourTurn,
// game.ErrGameOver, ...) and chess.ErrIllegalMove.
var (
	// ErrNotFound: no such game (or invite). Stores wrap it too.
	ErrNotFound = errors.New("play: game not found")
	// ErrNotPlayer: the user does not play in this game.
	ErrNotPlayer = errors.New("play: not a player in this game")
	// ErrInvalid: a bad argument (level, colour, time control).
	ErrInvalid = errors.New("play: invalid request")
	// ErrNoBots: no computer players are configured.
	ErrNoBots = errors.New("play: no computer players")
	// ErrClosed: the service has been closed.
	ErrClosed = errors.New("play: service closed")
	// ErrNotOwner: in a cluster, another node owns the game and runs its
	// writer (see Cluster.Claim); the request belongs there.
	ErrNotOwner = errors.New("play: game owned by another node")
)
