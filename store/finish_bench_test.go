package store

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// BenchmarkFinishGameManyAtOnce measures game ends per second when many
// end at the same moment, as when a crowd of players resigns together:
// b.N rated Quick Play games between 256 members, each ended by
// resignation (Elo, experience and the settlement) from 64 writers at once.
func BenchmarkFinishGameManyAtOnce(b *testing.B) {
	s, _ := mustOpen(b)
	const members, writers = 256, 64
	mustUsers(b, s, members)
	ctx := context.Background()
	ids := make([]int64, b.N)
	for i := range ids {
		white, black := int64(1+2*i%members), int64(2+2*i%members)
		id, _, err := s.CreatePublicGame(ctx, play.GameRecord{Kind: play.Quick, White: game.Human(white), Black: game.Human(black),
			Control: clock.MustParse("5+0"), Status: game.Active, CreatedAt: gameT0, StartedAt: gameT0})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = id
	}
	end := play.Ending{Status: game.Finished, At: gameT0.Add(time.Minute),
		Outcome: game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}}
	var next atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(ids)) {
					return
				}
				if err := s.FinishGame(ctx, ids[i], end); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
