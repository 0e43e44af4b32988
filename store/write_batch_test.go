package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestWriteBatchEachWriteAlone commits one batch holding good moves and
// ends and writes the games refuse: each refusal is that write's alone,
// and the good writes are committed.
func TestWriteBatchEachWriteAlone(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	ids := startGames(t, s, 5)
	if err := s.FinishGame(context.Background(), ids[2], play.Ending{Status: game.Aborted, At: gameT0}); err != nil {
		t.Fatal(err)
	}
	resigned := &play.Ending{Status: game.Finished, At: gameT0,
		Outcome: game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}}
	move := func(id int64, ply int) gameWrite {
		return gameWrite{ctx: context.Background(), id: id, move: &play.StoredMove{Ply: ply, UCI: loadMoves[(ply-1)%4], At: gameT0}, answer: make(chan error, 1)}
	}
	end := func(id int64) gameWrite {
		return gameWrite{ctx: context.Background(), id: id, end: resigned, answer: make(chan error, 1)}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	late := move(ids[1], 2)
	late.ctx = cancelled
	mate := move(ids[4], 1)
	mate.end = resigned
	batch := []gameWrite{
		move(ids[0], 1), // good
		move(ids[1], 3), // ply 3 does not follow ply 0
		move(ids[2], 1), // aborted game
		move(99999, 1),  // no such game
		move(ids[1], 1), // good
		late,            // its request ended before the batch
		end(ids[3]),     // good
		end(ids[2]),     // aborted game
		mate,            // good: a move and the end
		end(99999),      // no such game
	}
	s.writes.commit(batch)
	got := make([]error, len(batch))
	for i, w := range batch {
		got[i] = <-w.answer
	}
	for _, i := range []int{0, 4, 6, 8} {
		if got[i] != nil {
			t.Errorf("good write %d answered %v, want nil", i, got[i])
		}
	}
	if got[1] == nil || !strings.Contains(got[1].Error(), "does not follow") {
		t.Errorf("move at the wrong ply answered %v", got[1])
	}
	if got[2] == nil || !strings.Contains(got[2].Error(), "aborted") {
		t.Errorf("move of an aborted game answered %v", got[2])
	}
	if got[7] == nil || !strings.Contains(got[7].Error(), "aborted") {
		t.Errorf("end of an aborted game answered %v", got[7])
	}
	for _, i := range []int{3, 9} {
		if !errors.Is(got[i], ErrNotFound) || !errors.Is(got[i], play.ErrNotFound) {
			t.Errorf("write %d, of a missing game, answered %v, want ErrNotFound", i, got[i])
		}
	}
	if !errors.Is(got[5], context.Canceled) {
		t.Errorf("move whose request ended answered %v, want context.Canceled", got[5])
	}
	var stored []struct {
		Game int64 `db:"game_id"`
		Ply  int   `db:"ply"`
	}
	if err := s.rdb.Select(&stored, "SELECT game_id, ply FROM moves ORDER BY game_id"); err != nil {
		t.Fatal(err)
	}
	if len(stored) != 3 || stored[0].Game != ids[0] || stored[1].Game != ids[1] || stored[2].Game != ids[4] {
		t.Errorf("stored moves %+v, want ply 1 of games %d, %d and %d", stored, ids[0], ids[1], ids[4])
	}
	for _, id := range []int64{ids[3], ids[4]} {
		if g, err := s.Game(context.Background(), id); err != nil || g.Status != game.Finished || g.Outcome.Result != game.WhiteWins {
			t.Errorf("game %d after its end: %v %v, %v; want finished 1-0", id, g.Status, g.Outcome.Result, err)
		}
	}
}

// TestWriteBatchDatabaseErrorAlone: a write that fails with a database
// error, here the settlement of one game's end, fails alone and leaves
// nothing of itself; the others of its batch are committed.
func TestWriteBatchDatabaseErrorAlone(t *testing.T) {
	s, _ := mustOpen(t)
	if onPostgres(t) {
		t.Skip("breaks one settlement with a SQLite trigger")
	}
	mustUsers(t, s, 2)
	ids := startGames(t, s, 3)
	s.db.MustExec(fmt.Sprintf(`CREATE TRIGGER break_settlement BEFORE UPDATE OF settled ON games
		WHEN NEW.id = %d BEGIN SELECT RAISE(ABORT, 'settlement broken'); END`, ids[1]))
	resigned := &play.Ending{Status: game.Finished, At: gameT0,
		Outcome: game.Outcome{Result: game.BlackWins, Reason: game.Resignation, Side: chess.White}}
	batch := make([]gameWrite, len(ids))
	for i, id := range ids {
		batch[i] = gameWrite{ctx: context.Background(), id: id, end: resigned, answer: make(chan error, 1)}
	}
	s.writes.commit(batch)
	for i, w := range batch {
		err := <-w.answer
		if broken := i == 1; broken != (err != nil) {
			t.Errorf("end of game %d answered %v", i, err)
		}
		g, err := s.Game(context.Background(), ids[i])
		if want := map[bool]game.Status{true: game.Active, false: game.Finished}[i == 1]; err != nil || g.Status != want {
			t.Errorf("game %d is %v, %v; want %v", i, g.Status, err, want)
		}
	}
}

// TestWriteBatchAfterClose: a move queued before Close is written; one sent
// after is refused.
func TestWriteBatchAfterClose(t *testing.T) {
	s, path := mustOpen(t)
	if onPostgres(t) {
		t.Skip("reopens its SQLite file after Close")
	}
	mustUsers(t, s, 2)
	ids := startGames(t, s, 1)
	ctx := context.Background()
	m := play.StoredMove{Ply: 1, UCI: "g1f3", At: gameT0.Add(time.Second)}
	if err := s.AppendMove(ctx, ids[0], m, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	m.Ply, m.UCI = 2, "g8f6"
	if err := s.AppendMove(ctx, ids[0], m, nil); !errors.Is(err, errStoreClosed) {
		t.Errorf("AppendMove after Close = %v, want errStoreClosed", err)
	}
	again, err := openAt(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	rec, err := again.Game(ctx, ids[0])
	if err != nil || len(rec.Moves) != 1 {
		t.Errorf("after reopening: %d moves, %v; want 1", len(rec.Moves), err)
	}
}

// TestWriteBatchLeadsInTurn has 64 games' writers write at once: each
// write is answered and stored, and the writes that came while a batch was
// committed were committed together, by the writers' own goroutines in
// turn.
func TestWriteBatchLeadsInTurn(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	const games, plies = 64, 20
	ids := startGames(t, s, games)
	ctx := context.Background()
	before := s.writes.commits.Load()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			for ply := 1; ply <= plies; ply++ {
				m := play.StoredMove{Ply: ply, UCI: loadMoves[(ply-1)%4], At: gameT0}
				if err := s.AppendMove(ctx, id, m, nil); err != nil {
					t.Errorf("game %d, ply %d: %v", id, ply, err)
					return
				}
			}
		})
	}
	wg.Wait()
	var n int
	if err := s.rdb.Get(&n, "SELECT COUNT(*) FROM moves"); err != nil || n != games*plies {
		t.Errorf("stored moves = %d, %v; want %d", n, err, games*plies)
	}
	commits := s.writes.commits.Load() - before
	if commits >= games*plies {
		t.Errorf("%d commits for %d writes at once: none was batched", commits, games*plies)
	}
	s.writes.mu.Lock()
	defer s.writes.mu.Unlock()
	if s.writes.leading || len(s.writes.queue) > 0 {
		t.Errorf("after the writes: leading %v, %d queued; want nobody leading and none queued", s.writes.leading, len(s.writes.queue))
	}
	t.Logf("%d writes in %d commits", games*plies, commits)
}

// TestWriteBatchLeaderPanics: a commit that panics, on the goroutine of
// the request that led it, does not leave the writes after it waiting
// for a leader that is gone.
func TestWriteBatchLeaderPanics(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	ids := startGames(t, s, 2)
	fence := s.writes.fence
	s.writes.fence = func(ctx context.Context, q sqlx.QueryerContext, id int64) error {
		if id == ids[0] {
			panic("broken fence")
		}
		return fence(ctx, q, id)
	}
	ctx := context.Background()
	m := play.StoredMove{Ply: 1, UCI: "g1f3", At: gameT0}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the commit's panic did not reach the leader's caller")
			}
		}()
		_ = s.AppendMove(ctx, ids[0], m, nil)
	}()
	done := make(chan error, 1)
	go func() { done <- s.AppendMove(ctx, ids[1], m, nil) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the move after the panic: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the move after the panic is still waiting for a leader")
	}
}
