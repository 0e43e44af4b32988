package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"testing"
	"time"

	"satranc/engine/play"
)

// BenchmarkUserBySessionUnderWrites reads the sessions of 20,000 members
// in turn from the database, each forgotten by the store's cache,
// while moves are committed all the time, as on a busy server: every
// commit since a reader's previous read makes SQLite drop that
// connection's page cache, so each read starts cold.
func BenchmarkUserBySessionUnderWrites(b *testing.B) {
	s, _ := mustOpen(b)
	ctx := context.Background()
	const members = 20000
	now := time.Now()
	expires := now.AddDate(10, 0, 0)
	tx, err := s.db.Beginx()
	if err != nil {
		b.Fatal(err)
	}
	for i := 1; i <= members; i++ {
		if _, err := tx.Exec(`INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, 'x', ?)`,
			i, fmt.Sprintf("u%d", i), s.now()); err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			tokenOf(i), i, formatTime(now), formatTime(expires)); err != nil {
			b.Fatal(err)
		}
	}
	// The moves of 5,000 finished games of 100 plies, as a site has
	// after a while: the file is larger than the readers' page caches.
	for g := 1; g <= 5000; g++ {
		res, err := tx.Exec(`INSERT INTO games (kind, white_id, black_id, start_fen, status, created_at, started_at, ended_at)
			VALUES ('private', 1, 2, 'startpos', 'finished', ?, ?, ?)`, s.now(), s.now(), s.now())
		if err != nil {
			b.Fatal(err)
		}
		id, _ := res.LastInsertId()
		for ply := 1; ply <= 100; ply++ {
			if _, err := tx.Exec(`INSERT INTO moves (game_id, ply, uci, played_at) VALUES (?, ?, ?, ?)`,
				id, ply, loadMoves[(ply-1)%4], formatTime(now)); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	ids := startGames(b, s, 64)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for ply := 1; ; ply++ {
			for _, id := range ids {
				select {
				case <-stop:
					return
				default:
				}
				m := play.StoredMove{Ply: ply, UCI: loadMoves[(ply-1)%4], At: gameT0}
				if err := s.AppendMove(ctx, id, m, nil); err != nil {
					b.Error(err)
					return
				}
			}
		}
	})
	clock := now
	s.Now = func() time.Time { return clock }
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		i = i%members + 1
		s.sessions.forget(tokenOf(i)) // never kept
		if _, err := s.UserBySession(ctx, tokenOf(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
}

// tokenOf is the token hash of member i's session.
func tokenOf(i int) []byte {
	h := make([]byte, 32)
	binary.BigEndian.PutUint64(h, uint64(i))
	return h
}
