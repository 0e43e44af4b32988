package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// startGames creates n active games between users 1 and 2.
func startGames(tb testing.TB, s *Store, n int) []int64 {
	tb.Helper()
	ctx := context.Background()
	ids := make([]int64, n)
	for i := range ids {
		id, err := s.CreateGame(ctx, play.GameRecord{
			Kind: play.Private, White: game.Human(1), Control: clock.MustParse("3+2"),
			Status: game.Waiting, CreatedAt: gameT0,
		})
		if err != nil {
			tb.Fatal(err)
		}
		if err := s.StartGame(ctx, id, game.Human(1), game.Human(2), gameT0); err != nil {
			tb.Fatal(err)
		}
		ids[i] = id
	}
	return ids
}

// loadMoves are moves that can be stored in any order of plies: the store
// checks the ply sequence, not legality.
var loadMoves = []string{"g1f3", "g8f6", "f3g1", "f6g8"}

// TestManyWritersNoLockErrors has 200 goroutines write moves and read games
// at once, the way 200 games' writers and their streams do: every write
// succeeds (none runs out of busy timeout with "database is locked"), and
// every move is stored.
func TestManyWritersNoLockErrors(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	ctx := context.Background()
	const games, plies = 200, 10
	ids := startGames(t, s, games)
	var wg sync.WaitGroup
	errs := make(chan error, games)
	for _, id := range ids {
		wg.Go(func() {
			for ply := 1; ply <= plies; ply++ {
				m := play.StoredMove{Ply: ply, UCI: loadMoves[(ply-1)%4], At: gameT0.Add(time.Duration(ply) * time.Second)}
				if err := s.AppendMove(ctx, id, m, nil); err != nil {
					errs <- err
					return
				}
				if _, err := s.Game(ctx, id); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var n int
	if err := s.rdb.Get(&n, "SELECT COUNT(*) FROM moves"); err != nil || n != games*plies {
		t.Errorf("stored moves = %d, %v; want %d", n, err, games*plies)
	}
}

// BenchmarkAppendMove measures stored moves per second with many games'
// writers at once (b.RunParallel: GOMAXPROCS×parallelism goroutines).
func BenchmarkAppendMove(b *testing.B) {
	s, _ := mustOpen(b)
	mustUsers(b, s, 2)
	ctx := context.Background()
	const games = 256
	ids := startGames(b, s, games)
	var mu sync.Mutex
	next, plies := 0, make([]int, games)
	b.SetParallelism(32)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		g := next % games
		next++
		mu.Unlock()
		for pb.Next() {
			plies[g]++
			m := play.StoredMove{Ply: plies[g], UCI: loadMoves[(plies[g]-1)%4], At: gameT0, Clock: time.Minute, HasClock: true}
			if err := s.AppendMove(ctx, ids[g], m, nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkAppendMoveAlone measures a move stored while no other write
// is waiting, as most are (some 1.1 writes a commit at 5,000 games): one
// writer, one game.
func BenchmarkAppendMoveAlone(b *testing.B) {
	s, _ := mustOpen(b)
	mustUsers(b, s, 2)
	ctx := context.Background()
	id := startGames(b, s, 1)[0]
	ply := 0
	for b.Loop() {
		ply++
		m := play.StoredMove{Ply: ply, UCI: loadMoves[(ply-1)%4], At: gameT0, Clock: time.Minute, HasClock: true}
		if err := s.AppendMove(ctx, id, m, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreateGame measures a new game's row written while no other
// write waits, under a context that can be cancelled, as a request's is.
func BenchmarkCreateGame(b *testing.B) {
	s, _ := mustOpen(b)
	mustUsers(b, s, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := play.GameRecord{Kind: play.Private, White: game.Human(1), Control: clock.MustParse("3+2"),
		Status: game.Waiting, CreatedAt: gameT0}
	for b.Loop() {
		if _, err := s.CreateGame(ctx, rec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendMoveManyGames measures stored moves per second the way a
// busy server writes them: 5,120 games in progress, each 40 plies in, so
// that each move goes to another part of the moves table than the one
// before it, from 64 games' writers at once.
func BenchmarkAppendMoveManyGames(b *testing.B) {
	s, _ := mustOpen(b)
	mustUsers(b, s, 2)
	ctx := context.Background()
	const games, writers, playedPlies = 5120, 64, 40
	ids := startGames(b, s, games)
	tx := s.db.MustBegin()
	for _, id := range ids {
		for ply := 1; ply <= playedPlies; ply++ {
			tx.MustExec("INSERT INTO moves (game_id, ply, uci, played_at, clock_ms) VALUES (?, ?, ?, ?, ?)",
				id, ply, loadMoves[(ply-1)%4], formatTime(gameT0), 60000)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	plies := make([]int, games)
	for i := range plies {
		plies[i] = playedPlies
	}
	var next sync.Mutex
	moves := 0
	b.ResetTimer()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			// Writer w plays the games w, w+writers, w+2×writers, … in turn,
			// and no other writer plays them.
			for i := 0; ; i++ {
				g := w + i%(games/writers)*writers
				next.Lock()
				if moves == b.N {
					next.Unlock()
					return
				}
				moves++
				next.Unlock()
				plies[g]++
				m := play.StoredMove{Ply: plies[g], UCI: loadMoves[(plies[g]-1)%4], At: gameT0, Clock: time.Minute, HasClock: true}
				if err := s.AppendMove(ctx, ids[g], m, nil); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
