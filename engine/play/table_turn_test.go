package play

import (
	"context"
	"runtime"
	"testing"

	"satranc/engine/chess"
)

// TestTableTurn: a request runs as the game's writer on the caller's
// goroutine, allocating nothing of its own for the turn, and the writer
// takes the game back after it: a move still goes through.
func TestTableTurn(t *testing.T) {
	s := newService(newMemStore())
	defer s.Close()
	ctx := context.Background()
	id, white, _ := privateGame(t, s, "5+0")
	s.mu.Lock()
	tb := s.tables[id]
	s.mu.Unlock()
	if tb == nil {
		t.Fatal("no table for the game in progress")
	}
	turns := 0
	count := func(*table) error { turns++; return nil }
	if allocs := testing.AllocsPerRun(100, func() {
		if err := tb.do(ctx, count); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("a turn allocates %v times, want 0", allocs)
	}
	if turns != 101 {
		t.Errorf("%d turns, want 101", turns)
	}
	snap, err := s.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Move(ctx, id, white, "e4", chess.English, snap.Ply); err != nil {
		t.Fatalf("a move after the turns: %v", err)
	}
	if snap, err = s.Game(ctx, id); err != nil || snap.Ply != 1 {
		t.Fatalf("after e4: ply %d, %v; want 1", snap.Ply, err)
	}
}

// TestTablesWithoutGoroutines: a live game waits for its next request or
// deadline without a goroutine of its own.
func TestTablesWithoutGoroutines(t *testing.T) {
	s := newService(newMemStore())
	defer s.Close()
	before := runtime.NumGoroutine()
	const games = 50
	ids := make([]int64, games)
	for i := range ids {
		ids[i], _, _ = privateGame(t, s, "5+0")
	}
	if n := runtime.NumGoroutine() - before; n >= games {
		t.Errorf("%d games in progress run %d goroutines more, want fewer than one each", games, n)
	}
	s.mu.Lock()
	live := len(s.tables)
	s.mu.Unlock()
	if live != games {
		t.Fatalf("%d tables, want %d", live, games)
	}
}
