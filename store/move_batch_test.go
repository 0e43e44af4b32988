package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"satranc/engine/game"
	"satranc/engine/play"
)

// TestMoveBatchEachMoveAlone writes one batch holding good moves and moves
// the games refuse: each refusal is that move's alone, and the good moves
// are committed.
func TestMoveBatchEachMoveAlone(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	ids := startGames(t, s, 3)
	if err := s.FinishGame(context.Background(), ids[2], play.Ending{Status: game.Aborted, At: gameT0}); err != nil {
		t.Fatal(err)
	}
	move := func(id int64, ply int) moveRequest {
		return moveRequest{ctx: context.Background(), id: id, m: play.StoredMove{Ply: ply, UCI: loadMoves[(ply-1)%4], At: gameT0}, answer: make(chan error, 1)}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	late := move(ids[1], 2)
	late.ctx = cancelled
	batch := []moveRequest{
		move(ids[0], 1), // good
		move(ids[1], 3), // ply 3 does not follow ply 0
		move(ids[2], 1), // aborted game
		move(99999, 1),  // no such game
		move(ids[1], 1), // good
		late,            // its request ended before the batch
	}
	s.moves.write(batch)
	got := make([]error, len(batch))
	for i, req := range batch {
		got[i] = <-req.answer
	}
	if got[0] != nil || got[4] != nil {
		t.Errorf("good moves answered %v and %v, want nil", got[0], got[4])
	}
	if got[1] == nil || !strings.Contains(got[1].Error(), "does not follow") {
		t.Errorf("move at the wrong ply answered %v", got[1])
	}
	if got[2] == nil || !strings.Contains(got[2].Error(), "aborted") {
		t.Errorf("move of an aborted game answered %v", got[2])
	}
	if !errors.Is(got[3], ErrNotFound) || !errors.Is(got[3], play.ErrNotFound) {
		t.Errorf("move of a missing game answered %v, want ErrNotFound", got[3])
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
	if len(stored) != 2 || stored[0].Game != ids[0] || stored[1].Game != ids[1] || stored[0].Ply != 1 || stored[1].Ply != 1 {
		t.Errorf("stored moves %+v, want ply 1 of games %d and %d", stored, ids[0], ids[1])
	}
}

// TestMoveBatchAfterClose: a move queued before Close is written; one sent
// after is refused.
func TestMoveBatchAfterClose(t *testing.T) {
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
