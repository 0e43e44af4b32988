package play

import (
	"context"
	"fmt"
	"time"

	"satranc/engine/chips"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// CreatePublicGame starts a public game between white and black, each a
// user (game.Human) or a computer player (game.Bot), at once: the lobby has
// paired them. kind is Quick (stake must be 0) or Lounge (stake must be one
// of the lounges' stakes, chips.Lounges); control must be an offered time
// control.
//
// For a lounge game it checks that each human may sit there (10 × the stake;
// Has Oda) and, in the transaction that creates the game, applies the
// same-opponent rule and holds both stakes in escrow, the house covering a
// bot's (SPEC section 5). unstaked reports that the rule made the game
// unstaked: no stakes, no Elo, no tournament points; the table should say so
// before the first move. Errors: ErrInvalid, ErrNoBots, and for a player who
// may not sit, errors wrapping chips.ErrInsufficientBalance or
// chips.ErrReserved.
//
// The game settles when it ends, in the transaction that ends it (see
// settle.go).
func (s *Service) CreatePublicGame(ctx context.Context, kind Kind, white, black game.Seat, control clock.Control, stake int64) (id int64, unstaked bool, err error) {
	if err := checkPublic(kind, white, black, control, stake); err != nil {
		return 0, false, err
	}
	if (white.IsBot() || black.IsBot()) && s.bots == nil {
		return 0, false, ErrNoBots
	}
	now := s.now()
	return s.createPublic(ctx, GameRecord{Kind: kind, White: white, Black: black, Control: control, Status: game.Active,
		Stake: stake, CreatedAt: now, StartedAt: now})
}

// createPublic stores and starts public game rec: for a lounge, with the
// checks, the same-opponent rule and the stakes held in the store's one
// transaction (see CreatePublicGame).
func (s *Service) createPublic(ctx context.Context, rec GameRecord) (int64, bool, error) {
	id, unstaked, err := s.store.CreatePublicGame(ctx, rec)
	if err != nil {
		return 0, false, fmt.Errorf("play: create %s game: %w", rec.Kind, err)
	}
	rec.ID, rec.Unstaked = id, unstaked
	return id, unstaked, s.startNew(rec)
}

// checkPublic validates the arguments of CreatePublicGame.
func checkPublic(kind Kind, white, black game.Seat, control clock.Control, stake int64) error {
	switch kind {
	case Quick:
		if stake != 0 {
			return fmt.Errorf("%w: quick play is unstaked, not %d", ErrInvalid, stake)
		}
	case Lounge:
		if _, err := chips.LoungeByStake(stake); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalid, err)
		}
	default:
		return fmt.Errorf("%w: %q is not a public game", ErrInvalid, kind)
	}
	switch {
	case !control.IsOffered():
		return fmt.Errorf("%w: time control %v is not offered", ErrInvalid, control)
	case white.IsEmpty() || black.IsEmpty():
		return fmt.Errorf("%w: empty seat", ErrInvalid)
	case white.IsBot() && black.IsBot():
		return fmt.Errorf("%w: two computer players", ErrInvalid)
	case white.IsHuman() && white.User == black.User:
		return fmt.Errorf("%w: user %d against themself", ErrInvalid, white.User)
	case white.Bot > game.Hard || black.Bot > game.Hard:
		return fmt.Errorf("%w: bot level", ErrInvalid)
	}
	return nil
}

// Balance returns user's chips (SPEC section 5).
func (s *Service) Balance(ctx context.Context, user int64) (int64, error) {
	n, err := s.store.Balance(ctx, user)
	if err != nil {
		return 0, fmt.Errorf("play: balance of user %d: %w", user, err)
	}
	return n, nil
}

// Stats are a player's figures for the profile (SPEC section 7).
type Stats struct {
	Rating     int
	RatedGames int
	// Wins, Draws and Losses count every finished game of every kind;
	// aborted games count nowhere (SPEC section 3).
	Wins, Draws, Losses int
	XP                  int // see engine/xp for the rule and the level
}

// RatingChange is one step of a player's rating history: the rating before
// and after rated game GameID, which ended at At.
type RatingChange struct {
	GameID        int64
	Before, After int
	At            time.Time
}
