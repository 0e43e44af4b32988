package handlers

import (
	"context"
)

// InPlay is what the header and the home page need to know of the games in
// progress (store.Store implements it).
type InPlay interface {
	// ActiveGame returns the member's game in progress, 0 for none.
	ActiveGame(ctx context.Context, user int64) (int64, error)
	// PlayCounts returns how many members play and how many games are
	// in progress.
	PlayCounts(ctx context.Context) (players, games int, err error)
	// GamesToWatch returns up to limit games in progress, best-rated
	// first, for the Watch page (watch.go).
	GamesToWatch(ctx context.Context, limit int) ([]int64, error)
}

// activeGame returns a lookup of user's game in progress for
// views.WithActiveGame; an error is logged and shows no link.
func (h *Handler) activeGame(ctx context.Context, user int64) func() int64 {
	return func() int64 {
		id, err := h.inPlay.ActiveGame(ctx, user)
		if err != nil {
			h.log.WarnContext(ctx, "game in progress", "user", user, "err", err)
			return 0
		}
		return id
	}
}
