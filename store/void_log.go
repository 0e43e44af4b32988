package store

import (
	"context"
	"fmt"
	"time"

	"satranc/engine/fairplay"
)

// VoidsSince returns the games voided at or after since, oldest first
// (fairplay.VoidLog): how a server learns of a void that `satranc admin`
// made in another process. It reads games.voided_at, which has no index:
// voids are rare and the watcher polls every few seconds.
func (s *Store) VoidsSince(ctx context.Context, since time.Time) ([]fairplay.Void, error) {
	var rows []struct {
		ID       int64  `db:"id"`
		VoidedAt string `db:"voided_at"`
	}
	err := s.rdb.SelectContext(ctx, &rows,
		"SELECT id, voided_at FROM games WHERE voided_at >= ? ORDER BY voided_at, id", formatTime(since))
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
