package play

import (
	"context"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// ColorChoice is the colour a player asks for in a practice game.
type ColorChoice uint8

// The colour choices.
const (
	RandomColor ColorChoice = iota
	PlayWhite
	PlayBlack
)

// ParseColorChoice reads "random", "white" or "black".
func ParseColorChoice(s string) (ColorChoice, error) {
	switch s {
	case "random", "":
		return RandomColor, nil
	case "white":
		return PlayWhite, nil
	case "black":
		return PlayBlack, nil
	}
	return RandomColor, fmt.Errorf("%w: colour %q", ErrInvalid, s)
}

// side returns the chosen side, drawing lots for RandomColor.
func (c ColorChoice) side() chess.Color {
	switch c {
	case PlayWhite:
		return chess.White
	case PlayBlack:
		return chess.Black
	}
	return chess.Color(mrand.IntN(2))
}

// CreatePracticeGame starts a game of user against the computer at level,
// with control (an offered one, or clock.Untimed) and the colour chosen. The
// game starts at once; if the computer has White it moves first.
func (s *Service) CreatePracticeGame(ctx context.Context, user int64, level game.Level, control clock.Control, color ColorChoice) (int64, error) {
	switch {
	case s.bots == nil:
		return 0, ErrNoBots
	case level < game.Easy || level > game.Hard:
		return 0, fmt.Errorf("%w: level %v", ErrInvalid, level)
	case control.Timed() && !control.IsOffered():
		return 0, fmt.Errorf("%w: time control %v is not offered", ErrInvalid, control)
	case user <= 0 || color > PlayBlack:
		return 0, fmt.Errorf("%w: user %d, colour %d", ErrInvalid, user, color)
	}
	now := s.now()
	rec := GameRecord{Kind: Practice, Control: control, Status: game.Active, CreatedAt: now, StartedAt: now}
	if color.side() == chess.White {
		rec.White, rec.Black = game.Human(user), game.Bot(level)
	} else {
		rec.White, rec.Black = game.Bot(level), game.Human(user)
	}
	return s.create(ctx, rec)
}

// CreatePrivateGame creates a private game of user with an offered time
// control and returns it with the invite token for the link. The creator's
// colour is drawn by lot; the game waits until a friend joins
// (JoinPrivateGame), or until the invitation expires (Config.InviteExpiry):
// then it is cancelled.
func (s *Service) CreatePrivateGame(ctx context.Context, user int64, control clock.Control) (id int64, token string, err error) {
	if !control.IsOffered() || user <= 0 {
		return 0, "", fmt.Errorf("%w: time control %v, user %d", ErrInvalid, control, user)
	}
	now := s.now()
	rec := GameRecord{Kind: Private, Control: control, Status: game.Waiting, CreatedAt: now, InviteToken: rand.Text()}
	if RandomColor.side() == chess.White {
		rec.White = game.Human(user)
	} else {
		rec.Black = game.Human(user)
	}
	id, err = s.create(ctx, rec)
	return id, rec.InviteToken, err
}

// JoinPrivateGame seats user in the private game of the invite token and
// starts it. For a player of the game (the creator opening the link, or
// the friend again) it changes nothing and returns the game id. Someone
// else gets the id and an error wrapping game.ErrSeatTaken: the page may
// then show the game to them as a spectator.
func (s *Service) JoinPrivateGame(ctx context.Context, user int64, token string) (int64, error) {
	rec, err := s.inviteRecord(ctx, token)
	if err != nil {
		return 0, err
	}
	err = s.within(ctx, rec.ID, func(t *table) error {
		if _, ok := t.g.SideOf(user); ok {
			return nil
		}
		// A join that comes as the invitation expires commits the
		// cancellation and fails with ErrSeatTaken.
		evs, err := t.g.Join(game.Human(user), t.s.now())
		if cerr := t.commit(evs); cerr != nil {
			return cerr
		}
		if err != nil {
			return fmt.Errorf("play: game %d: %w", t.id, err)
		}
		return nil
	}, func(over GameRecord) error {
		if over.White.User == user || over.Black.User == user {
			return nil
		}
		return fmt.Errorf("play: game %d is over: %w", over.ID, game.ErrSeatTaken)
	})
	return rec.ID, err
}

// create stores a new game and starts its writer.
func (s *Service) create(ctx context.Context, rec GameRecord) (int64, error) {
	id, err := s.store.CreateGame(ctx, rec)
	if err != nil {
		return 0, fmt.Errorf("play: create game: %w", err)
	}
	rec.ID = id
	return id, s.startNew(rec)
}

// startNew starts the writer of a game just stored.
func (s *Service) startNew(rec GameRecord) error {
	g := game.New(game.Options{
		White: rec.White, Black: rec.Black, Control: rec.Control,
		DisconnectGrace: s.grace, FirstMoveTime: s.first, JoinBy: s.joinBy(rec),
	}, rec.CreatedAt)
	if err := s.claimGame(rec.ID); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	t := s.addTable(rec, g)
	s.mu.Unlock()
	t.begin(nil)
	return nil
}
