package store

import (
	"context"
	"fmt"
	"testing"
)

func BenchmarkXBatch(b *testing.B) {
	for _, n := range []int{1, 2, 4, 16} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s, _ := mustOpen(b)
			mustUsers(b, s, 2)
			ctx := context.Background()
			const games = 5120
			ids := startGames(b, s, games)
			plies := make([]int, games)
			q := `INSERT INTO moves (game_id, ply, uci, played_at, clock_ms) VALUES (?, ?, ?, ?, ?)`
			b.ResetTimer()
			for i := 0; i < b.N; i += n {
				tx, err := s.db.BeginTxx(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				for j := i; j < i+n; j++ {
					g := (j * 7919) % games
					plies[g]++
					if _, err = tx.ExecContext(ctx, q, ids[g], plies[g], "e2e4", formatTime(gameT0), 60000); err != nil {
						b.Fatal(err)
					}
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
