package play

import (
	"context"
	"fmt"
	"time"

	"satranc/engine/game"
)

// rematch is the rematch state of a finished game.
type rematch struct {
	offered [2]bool // per side (chess.Color)
	newID   int64
}

// Rematch asks for a rematch of the finished game id on behalf of user,
// with colours swapped, at the same table (a lounge's rematch is staked
// like any lounge game). Against the computer the rematch starts at once.
// Between two people the first request is an offer (RematchOffered is
// published and 0 returned); the opponent's request starts the game
// (RematchReady is published with its id, which is returned). Once a
// rematch exists every further request returns its id.
func (s *Service) Rematch(ctx context.Context, id, user int64) (int64, error) {
	snap, err := s.Game(ctx, id)
	if err != nil {
		return 0, err
	}
	side, ok := snap.SideOf(user)
	switch {
	case !ok:
		return 0, fmt.Errorf("play: rematch of game %d: %w", id, ErrNotPlayer)
	case !snap.Status.Over():
		return 0, fmt.Errorf("play: rematch of game %d: %w: the game goes on", id, ErrInvalid)
	case snap.StartedAt.IsZero():
		return 0, fmt.Errorf("play: rematch of game %d: %w: nobody joined it", id, ErrInvalid)
	}

	s.rmu.Lock()
	defer s.rmu.Unlock()
	r := s.rematch[id]
	if r == nil {
		r = &rematch{}
		s.rematch[id] = r
	}
	if r.newID != 0 {
		return r.newID, nil
	}
	now := s.now()
	stamp := game.Stamp{Ply: snap.Ply, Time: now}
	if !snap.Seat(side.Other()).IsBot() && !r.offered[side.Other()] {
		if !r.offered[side] {
			r.offered[side] = true
			s.publish(id, []game.Event{RematchOffered{Stamp: stamp, By: side}}, r.after(snap, now))
		}
		return 0, nil
	}
	rec := GameRecord{
		Kind: snap.Kind, White: snap.Black, Black: snap.White, Control: snap.Control,
		Status: game.Active, RematchOf: id, CreatedAt: now, StartedAt: now,
	}
	var newID int64
	if snap.Kind == Quick || snap.Kind == Lounge {
		// Another game at the same public table: in a lounge the stake
		// again, so 10 × it needed, held in escrow, and the same-opponent
		// rule applied (SPEC section 5), as for a game from the lobby.
		rec.Stake = snap.Stake
		newID, _, err = s.createPublic(ctx, rec)
	} else {
		newID, err = s.create(ctx, rec)
	}
	if err != nil {
		return 0, err
	}
	r.offered[side] = true
	r.newID = newID
	s.publish(id, []game.Event{RematchReady{Stamp: stamp, NewGameID: newID}}, r.after(snap, now))
	return newID, nil
}

// after returns snap with the rematch state r as it is now, the snapshot
// its events are published with, taken at now (the game is over: its
// clocks stand still).
func (r *rematch) after(snap Snapshot, now time.Time) func() Snapshot {
	return func() Snapshot {
		snap.Clocks.At = now
		snap.RematchOffer, snap.RematchID = r.offered, r.newID
		return snap
	}
}
