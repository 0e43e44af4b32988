package store

import (
	"context"

	"github.com/jmoiron/sqlx"
)

// A Fence checks, through q, inside the transaction that writes game's
// start, moves or end, that this process may still write the game; when
// it may not, it returns an error wrapping play.ErrNotOwner and the write
// is refused. Several nodes sharing one database give each live game to
// one node at a time (store/postgres's leases); a node that lost a game
// (paused past its lease while another took over) must not write to it.
type Fence func(ctx context.Context, q sqlx.QueryerContext, game int64) error

// noFence is a single process's: it may write every game.
func noFence(context.Context, sqlx.QueryerContext, int64) error { return nil }

// FenceWith makes f check every write of a game's start, moves and end
// from now on. Call it before the store's first write of a game.
func (s *Store) FenceWith(f Fence) { s.fence = f }

// fenceGame runs the store's fence.
func (s *Store) fenceGame(ctx context.Context, q sqlx.QueryerContext, id int64) error {
	return s.fence(ctx, q, id)
}
