package handlers

import (
	"context"
	"errors"
	"testing"
	"time"
)

// countingInPlay answers PlayCounts with games and twice as many players,
// or err, and counts the reads.
type countingInPlay struct {
	InPlay
	games, reads int
	err          error
}

func (c *countingInPlay) PlayCounts(context.Context) (players, games int, err error) {
	c.reads++
	return 2 * c.games, c.games, c.err
}

// TestPlayCountsFresh: the home page's counts are read once for all the
// visits of playCountsFresh, then again; a failed read is not kept.
func TestPlayCountsFresh(t *testing.T) {
	var c playCounts
	src := &countingInPlay{games: 3}
	t0 := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	check := func(at time.Time, wantGames, wantReads int, wantErr bool) {
		t.Helper()
		players, games, err := c.get(context.Background(), src, at)
		if (err != nil) != wantErr || games != wantGames || players != 2*wantGames || src.reads != wantReads {
			t.Errorf("at %v: %d players, %d games, %v after %d reads; want %d games after %d reads",
				at.Sub(t0), players, games, err, src.reads, wantGames, wantReads)
		}
	}
	check(t0, 3, 1, false)
	src.games = 4
	check(t0.Add(playCountsFresh-time.Millisecond), 3, 1, false) // kept
	check(t0.Add(playCountsFresh), 4, 2, false)                  // read again
	src.err = errors.New("database gone")
	check(t0.Add(3*playCountsFresh), 0, 3, true)
	src.err = nil
	check(t0.Add(3*playCountsFresh+time.Millisecond), 4, 4, false) // the failure was not kept
}
