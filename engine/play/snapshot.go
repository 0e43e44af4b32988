package play

import (
	"context"
	"errors"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// Snapshot is a game as a page renders it, taken at one moment. It shares
// nothing with the live game but the array of Moves, which the game only
// appends to (past the snapshot's capacity): read Moves, never change it.
type Snapshot struct {
	ID           int64
	Kind         Kind
	White, Black game.Seat
	Control      clock.Control
	Status       game.Status
	// Outcome is set once the game is over.
	Outcome game.Outcome
	// Start and Position are the start and current positions.
	Start, Position chess.Position
	// Moves are the moves played with their times and the mover's clock
	// after each (for [%clk]); Ply is len(Moves).
	Moves []game.MoveRecord
	Ply   int
	// Clocks are both clocks at the moment of the snapshot.
	Clocks game.Clocks
	// DrawOffer reports a pending draw offer by DrawOfferBy.
	DrawOffer   bool
	DrawOfferBy chess.Color
	// DisconnectDeadline is, per side (indexed by chess.Color), when a
	// disconnected player loses; zero while connected.
	DisconnectDeadline [2]time.Time
	// DisconnectGrace is how long a player who lost the connection has to
	// come back.
	DisconnectGrace time.Duration
	// Abortable says the abort rule applies (game.Game.Abortable): a
	// resignation now aborts the game.
	Abortable bool
	// FirstMoveBy is, while an active timed game waits for a first move
	// (the clocks start once both sides have moved), when the side to move
	// must have made it, or the game is aborted; zero otherwise.
	FirstMoveBy time.Time
	// InviteToken is a private game's invite secret: show it only to the
	// player who created the game. JoinBy is when the invitation of a
	// Waiting game expires (zero: never).
	InviteToken string
	JoinBy      time.Time
	// Stake is a lounge game's stake per player; Unstaked is set when the
	// same-opponent rule (SPEC section 5) made it an unstaked game.
	Stake    int64
	Unstaked bool
	// RematchOffer reports, per side, a rematch request; RematchID is the
	// rematch game once it exists.
	RematchOffer [2]bool
	RematchID    int64
	// StartedAt and EndedAt are zero until the game starts and ends.
	StartedAt, EndedAt time.Time
	// VoidedAt is when an administrator voided the result of the finished
	// game (zero: it stands).
	VoidedAt time.Time
}

// Seat returns who plays side.
func (s *Snapshot) Seat(side chess.Color) game.Seat {
	if side == chess.White {
		return s.White
	}
	return s.Black
}

// SideOf returns the side user plays, if the user plays in the game.
func (s *Snapshot) SideOf(user int64) (chess.Color, bool) {
	for _, side := range sides {
		if user > 0 && s.Seat(side).User == user {
			return side, true
		}
	}
	return chess.White, false
}

// UCI returns the moves in UCI notation.
func (s *Snapshot) UCI() []string {
	out := make([]string, len(s.Moves))
	for i, m := range s.Moves {
		out[i] = m.Move.String()
	}
	return out
}

// SAN returns the moves in SAN with the letters l.
func (s *Snapshot) SAN(l chess.Letters) []string {
	out := make([]string, len(s.Moves))
	p := s.Start
	for i, m := range s.Moves {
		out[i] = p.SAN(m.Move, l)
		p = p.Play(m.Move)
	}
	return out
}

// LastMove returns the last move played, if any.
func (s *Snapshot) LastMove() (chess.Move, bool) {
	if len(s.Moves) == 0 {
		return chess.NullMove, false
	}
	return s.Moves[len(s.Moves)-1].Move, true
}

// snapshotOf takes g's state at now, sharing its moves (see Snapshot).
func snapshotOf(id int64, kind Kind, invite string, g *game.Game, now time.Time) Snapshot {
	// The moves are shared, not copied: a copy per publish was most of the
	// garbage of a move, and the game only appends to them. The full slice
	// expression makes an append to the snapshot's moves copy them rather
	// than write into the game's array.
	moves := g.Moves()
	snap := Snapshot{
		ID: id, Kind: kind, White: g.Seat(chess.White), Black: g.Seat(chess.Black),
		Control: g.Control(), Status: g.Status(), Outcome: g.Outcome(),
		Start: g.Start(), Position: g.Position(),
		Moves: moves[:len(moves):len(moves)], Ply: g.Ply(),
		Clocks:          g.Clocks(now),
		DisconnectGrace: g.DisconnectGrace(),
		InviteToken:     invite,
		StartedAt:       g.StartedAt(), EndedAt: g.EndedAt(),
	}
	snap.DrawOfferBy, snap.DrawOffer = g.DrawOffer()
	snap.Abortable = g.Status() == game.Active && g.Abortable()
	if g.Status() == game.Waiting {
		snap.JoinBy, _ = g.JoinBy()
	}
	for _, side := range sides {
		snap.DisconnectDeadline[side], _ = g.DisconnectDeadline(side)
	}
	_, snap.FirstMoveBy, _ = g.FirstMoveDeadline()
	return snap
}

// snapshot is the live game's snapshot now. Only the writer calls it.
func (t *table) snapshot() Snapshot {
	snap := snapshotOf(t.id, t.kind, t.invite, t.g, t.s.now())
	snap.Stake, snap.Unstaked = t.stake, t.unstaked
	return snap
}

// Game returns a snapshot of game id, live or over.
func (s *Service) Game(ctx context.Context, id int64) (Snapshot, error) {
	var snap Snapshot
	err := s.within(ctx, id, func(t *table) error {
		snap = t.snapshot()
		return nil
	}, func(rec GameRecord) error {
		g, err := s.restore(rec)
		if err != nil {
			return err
		}
		snap = snapshotOf(rec.ID, rec.Kind, rec.InviteToken, g, s.now())
		snap.Stake, snap.Unstaked = rec.Stake, rec.Unstaked
		snap.VoidedAt = rec.VoidedAt
		return nil
	})
	if err != nil {
		return Snapshot{}, err
	}
	s.rmu.Lock()
	if r := s.rematch[id]; r != nil {
		snap.RematchOffer, snap.RematchID = r.offered, r.newID
	}
	s.rmu.Unlock()
	return snap, nil
}

// Shared returns game id as it stands, like Game, but for a live game
// the snapshot its writer published last, which the game's streams share
// instead of holding a copy each (an idle spectator's stream keeps one):
// it is the same as Game's but for the clocks, which were read when it was
// taken (Clocks.At; game.Clocks.RunTo runs them on). The caller must not
// change it.
func (s *Service) Shared(ctx context.Context, id int64) (*Snapshot, error) {
	var snap *Snapshot
	err := s.within(ctx, id, func(t *table) error {
		if t.last == nil || t.last.Ply != t.g.Ply() || t.last.Status != t.g.Status() {
			fresh := t.snapshot()
			t.last = &fresh
		}
		snap = t.last
		return nil
	}, func(GameRecord) error { return errNotLive })
	if errors.Is(err, errNotLive) {
		fresh, err := s.Game(ctx, id)
		return &fresh, err
	}
	if err != nil {
		return nil, err
	}
	return snap, nil
}

// errNotLive tells Shared that the game has no writer: Game reads it.
var errNotLive = errors.New("play: the game is not live")
