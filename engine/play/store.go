package play

import (
	"context"
	"time"

	"satranc/engine/chat"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// Kind is the kind of a game, as stored.
type Kind string

// The kinds of game (SPEC section 5).
const (
	Practice Kind = "practice" // against the computer; unrated, unstaked
	Private  Kind = "private"  // invited by link; unrated, unstaked
	Quick    Kind = "quick"    // Quick Play (public; later)
	Lounge   Kind = "lounge"   // staked lounges (public; later)
)

// GameRecord is a game as the Store keeps it.
type GameRecord struct {
	ID           int64
	Kind         Kind
	White, Black game.Seat
	Control      clock.Control
	// StartFEN is the start position; "" means the standard one.
	StartFEN string
	Status   game.Status
	// Outcome is set for a game that is over: Result, Reason and Side (the
	// side the reason is about; for an aborted game, who aborted).
	Outcome game.Outcome
	// InviteToken is the secret of a private game's invite link.
	InviteToken string
	// RematchOf is the game this one is a rematch of, or 0.
	RematchOf int64
	// Stake is a lounge game's stake per player (0 for other kinds).
	// Unstaked says the same-opponent rule made it unstaked: nothing is
	// held, and it changes no rating (SPEC section 5).
	Stake                         int64
	Unstaked                      bool
	CreatedAt, StartedAt, EndedAt time.Time
	// VoidedAt is when an administrator voided the result (zero: it
	// stands); see engine/fairplay.
	VoidedAt time.Time
	// Moves are the moves played, in order.
	Moves []StoredMove
}

// StoredMove is one half-move as stored.
type StoredMove struct {
	Ply int    // 1 for the first move
	UCI string // such as "e2e4", "e7e8q", "e1g1"
	At  time.Time
	// Clock is the mover's time left after the move, increment included;
	// valid only if HasClock (timed games).
	Clock    time.Duration
	HasClock bool
}

// Ending is how and when a game ended, written in one transaction with the
// move that ended it, if any.
type Ending struct {
	Status  game.Status // game.Finished or game.Aborted
	Outcome game.Outcome
	At      time.Time
}

// Store is the persistence that play needs. Each method is one transaction.
// A missing game is an error wrapping ErrNotFound.
type Store interface {
	// CreateGame inserts a game (without moves) and returns its id.
	CreateGame(ctx context.Context, g GameRecord) (int64, error)
	// Game returns a game with its moves.
	Game(ctx context.Context, id int64) (GameRecord, error)
	// GameByInvite returns the game whose invite token is token.
	GameByInvite(ctx context.Context, token string) (GameRecord, error)
	// UnfinishedGames returns every waiting or active game with its moves.
	UnfinishedGames(ctx context.Context) ([]GameRecord, error)
	// StartGame seats both players of a waiting game and makes it active.
	StartGame(ctx context.Context, id int64, white, black game.Seat, at time.Time) error
	// AppendMove stores move m; if end is not nil the game ends with it, in
	// the same transaction.
	AppendMove(ctx context.Context, id int64, m StoredMove, end *Ending) error
	// FinishGame ends a game without a move (resignation, time, agreement...).
	FinishGame(ctx context.Context, id int64, end Ending) error
	// The end of a game, by AppendMove or FinishGame, also settles it in
	// the same transaction, once: see settle.go.

	// CreatePublicGame inserts a started Quick Play or lounge game. For a
	// lounge game, in the same transaction, it applies the same-opponent
	// rule and, unless that makes the game unstaked, holds both stakes in
	// escrow (the house covering a bot's). It returns the id and whether
	// the game is unstaked.
	CreatePublicGame(ctx context.Context, g GameRecord) (id int64, unstaked bool, err error)
	// Balance returns a user's chips.
	Balance(ctx context.Context, user int64) (int64, error)

	// AddChatMessage stores a chat message of a game (chat.go).
	AddChatMessage(ctx context.Context, m chat.Message) error
	// ChatMessages returns a game's chat messages, oldest first.
	ChatMessages(ctx context.Context, gameID int64) ([]chat.Message, error)

	// VIP reports whether a user is a VIP member, who may speak in voice
	// chat (voice.go). A missing user is an error.
	VIP(ctx context.Context, user int64) (bool, error)
}
