package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"satranc/engine/play"
)

// TestCheckpointerCopiesTheLog commits moves, far fewer pages than the
// writer's own checkpoint waits for (writerAutoCheckpoint), and finds
// them in the database file itself within a few of the checkpointer's
// ticks: a copy of the file alone, without its write-ahead log, holds
// them.
func TestCheckpointerCopiesTheLog(t *testing.T) {
	s, path := mustOpenSQLite(t)
	mustUsers(t, s, 2)
	ids := startGames(t, s, 20)
	ctx := context.Background()
	for ply := 1; ply <= 4; ply++ {
		for _, id := range ids {
			if err := s.AppendMove(ctx, id, play.StoredMove{Ply: ply, UCI: loadMoves[ply-1], At: gameT0}, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := 4 * len(ids)
	dir := t.TempDir()
	deadline := time.Now().Add(5 * time.Second)
	for got := -1; got != want; {
		if time.Now().After(deadline) {
			t.Fatalf("the database file alone holds %d moves after 5 s, want %d", got, want)
		}
		time.Sleep(checkpointEvery / 2)
		got = movesInFileAlone(t, path, dir)
	}
	if copied := s.checkpoints.copied.Load(); copied == 0 {
		t.Errorf("checkpointer's last whole copy = %d pages, want some", copied)
	}
}

// movesInFileAlone copies the database file at path, without its log,
// into dir and counts the moves the copy holds; -1 if the copy caught the
// file in the middle of a checkpoint and cannot be read.
func movesInFileAlone(t *testing.T, path, dir string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "alone.db")
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sqlx.Open("sqlite3", name+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.Get(&n, "SELECT COUNT(*) FROM moves"); err != nil {
		return -1
	}
	return n
}

// TestCheckpointerIdle: a store that commits nothing does not checkpoint.
func TestCheckpointerIdle(t *testing.T) {
	s, _ := mustOpenSQLite(t)
	before := s.writes.commits.Load()
	time.Sleep(3 * checkpointEvery)
	if s.writes.commits.Load() != before {
		t.Skip("something committed meanwhile")
	}
	if copied := s.checkpoints.copied.Load(); copied != 0 {
		t.Errorf("an idle store's checkpointer copied %d pages, want none", copied)
	}
}
