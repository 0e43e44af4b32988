package play

import (
	"context"
	"fmt"
	"time"

	"satranc/engine/game"
)

// DefaultInviteExpiry is how long a private game's invitation stays open.
// A game nobody joins within it is cancelled, so that it does not hold a
// writer and its memory for good, nor come back at every restart. A day,
// as lichess gives a challenge that anyone with the link may accept.
const DefaultInviteExpiry = 24 * time.Hour

// joinBy returns when the invitation of rec expires: for a private game
// still waiting for the friend, its creation plus the invitation expiry;
// zero for any other game.
func (s *Service) joinBy(rec GameRecord) time.Time {
	if rec.Kind != Private || rec.Status != game.Waiting {
		return time.Time{}
	}
	return rec.CreatedAt.Add(s.expiry)
}

// expireStale cancels rec if it is a private game whose invitation expired
// while no writer ran it (the server was down): the cancellation is written
// straight to the store, and no writer is started. It reports whether it
// cancelled the game.
func (s *Service) expireStale(ctx context.Context, rec GameRecord) (bool, error) {
	now := s.now()
	if by := s.joinBy(rec); by.IsZero() || now.Before(by) {
		return false, nil
	}
	g, err := s.restore(rec)
	if err != nil {
		return false, err
	}
	evs := g.Tick(now)
	if len(evs) == 0 {
		return false, nil
	}
	ended, ok := evs[len(evs)-1].(game.Ended)
	if !ok {
		return false, fmt.Errorf("play: game %d: expiry gave %T, want game.Ended", rec.ID, evs[len(evs)-1])
	}
	if err := s.claimGame(rec.ID); err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if err := s.store.FinishGame(ctx, rec.ID, *endingOf(ended)); err != nil {
		return false, fmt.Errorf("play: game %d: cancel the expired invitation: %w", rec.ID, err)
	}
	s.publish(rec.ID, evs, func() Snapshot {
		snap := snapshotOf(rec.ID, rec.Kind, rec.InviteToken, g, now)
		snap.Stake, snap.Unstaked = rec.Stake, rec.Unstaked
		return snap
	})
	return true, nil
}

// Invitation returns the game of the invite token, as the invitation page
// shows it: who waits, at what time control, and whether it still waits.
func (s *Service) Invitation(ctx context.Context, token string) (Snapshot, error) {
	rec, err := s.inviteRecord(ctx, token)
	if err != nil {
		return Snapshot{}, err
	}
	return s.Game(ctx, rec.ID)
}

// DeclinePrivateGame refuses, for user, the invitation of the invite
// token: the waiting game is cancelled (game.InviteDeclined), as when the
// invitation expires, and its creator's page hears of it on the game's
// stream. It returns the game id. The creator cannot decline their own
// invitation, and an invitation no longer open gives an error wrapping
// game.ErrSeatTaken.
func (s *Service) DeclinePrivateGame(ctx context.Context, user int64, token string) (int64, error) {
	rec, err := s.inviteRecord(ctx, token)
	if err != nil {
		return 0, err
	}
	err = s.within(ctx, rec.ID, func(t *table) error {
		evs, err := t.g.Decline(game.Human(user), t.s.now())
		if cerr := t.commit(evs); cerr != nil {
			return cerr
		}
		if err != nil {
			return fmt.Errorf("play: game %d: %w", t.id, err)
		}
		return nil
	}, func(over GameRecord) error {
		return fmt.Errorf("play: game %d is over: %w", over.ID, game.ErrSeatTaken)
	})
	return rec.ID, err
}

// inviteRecord returns the private game of the invite token.
func (s *Service) inviteRecord(ctx context.Context, token string) (GameRecord, error) {
	if token == "" {
		return GameRecord{}, fmt.Errorf("play: invite: %w", ErrNotFound)
	}
	rec, err := s.store.GameByInvite(ctx, token)
	if err != nil {
		return GameRecord{}, fmt.Errorf("play: invite: %w", err)
	}
	if rec.Kind != Private {
		return GameRecord{}, fmt.Errorf("play: invite: %w", ErrNotFound)
	}
	return rec, nil
}
