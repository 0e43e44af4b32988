package store

import (
	"context"
	"fmt"
	"time"

	"satranc/engine/fairplay"
)

// VoidsSince returns the games voided at or after since, oldest first
// (fairplay.VoidLog): how a server learns of a void that `satranc admin`
// made in another process. The watcher polls every few seconds, so the
// voided games have an index of their own (games_voided): a search of
// the games table would read every game the site ever had.
func (s *Store) VoidsSince(ctx context.Context, since time.Time) ([]fairplay.Void, error) {
	var rows []struct {
		ID       int64  `db:"id"`
		VoidedAt string `db:"voided_at"`
	}
	err := s.rdb.SelectContext(ctx, &rows, voidsSinceQuery, formatTime(since))
	if err != nil {
		return nil, fmt.Errorf("store: voids since %s: %w", formatTime(since), err)
	}
	voids := make([]fairplay.Void, len(rows))
	for i, r := range rows {
		at, err := parseTime(r.VoidedAt)
		if err != nil {
			return nil, fmt.Errorf("store: void of game %d: %w", r.ID, err)
		}
		voids[i] = fairplay.Void{Game: r.ID, At: at}
	}
	return voids, nil
}

// voidsSinceQuery reads the games voided at or after its one parameter.
const voidsSinceQuery = "SELECT id, voided_at FROM games WHERE voided_at >= ? ORDER BY voided_at, id"
