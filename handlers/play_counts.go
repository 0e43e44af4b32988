package handlers

import (
	"context"
	"sync"
	"time"
)

// playCountsFresh is how long the home page shows the same counts of games
// in progress and of their players.
const playCountsFresh = 5 * time.Second

// playCounts keeps the home page's counts of games in progress and of the
// members playing them for a few seconds. Counting the players reads every
// game in progress, 2.1 ms at 5,000 games (store's BenchmarkPlayCounts):
// too much for each visit to the busiest page, when counts a few seconds
// old tell a visitor the same. The pages asking together share one read.
type playCounts struct {
	mu             sync.Mutex
	read           time.Time // zero: never read, or the last read failed
	players, games int
}

// get returns the counts, read again from src if they are older than
// playCountsFresh at now.
func (c *playCounts) get(ctx context.Context, src InPlay, now time.Time) (players, games int, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.read.IsZero() && now.Sub(c.read) < playCountsFresh {
		return c.players, c.games, nil
	}
	players, games, err = src.PlayCounts(ctx)
	if err != nil {
		c.read = time.Time{}
		return 0, 0, err
	}
	c.players, c.games, c.read = players, games, now
	return players, games, nil
}
