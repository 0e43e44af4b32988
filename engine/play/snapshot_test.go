package play

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/live"
)

// TestSnapshotsShareMoves: snapshots share the game's moves instead of
// copying them, which is sound because the game only appends past every
// snapshot's length. A stream reads each published snapshot's moves, and
// the earlier snapshots' again, while the writer plays on (run it with
// -race); every snapshot keeps the moves it was taken with, and appending
// to one changes neither the game nor a later snapshot.
func TestSnapshotsShareMoves(t *testing.T) {
	s := New(Config{
		Store:  benchStore{newMemStore()},
		Hub:    live.New[int64, *Event](1024), // the reader must not be dropped
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	defer s.Close()
	uci := randomGames(t, 1, 80, 7)[0]
	bg := newBenchGame(t, s)
	sub := s.Subscribe(bg.id)
	defer sub.Close()

	played := make([]chess.Move, len(uci))
	p := chess.StartPosition()
	for i, u := range uci {
		m, err := p.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		played[i], p = m, p.Play(m)
	}
	// moveList is snap's moves, checked against the game's.
	moveList := func(snap *Snapshot) []chess.Move {
		ms := make([]chess.Move, len(snap.Moves))
		for i, r := range snap.Moves {
			if r.At == 0 {
				t.Errorf("ply %d: move %d has no time", snap.Ply, i+1)
			}
			ms[i] = r.Move
		}
		if len(ms) != snap.Ply || !slices.Equal(ms, played[:len(ms)]) {
			t.Errorf("snapshot at ply %d has moves %v, want %v", snap.Ply, ms, played[:snap.Ply])
		}
		return ms
	}

	done := make(chan []*Snapshot)
	go func() {
		var seen []*Snapshot
		for e := range sub.C() {
			if _, ok := e.Payload.(game.Moved); !ok {
				continue
			}
			seen = append(seen, e.After)
			for _, old := range seen {
				moveList(old)
			}
			if e.After.Ply == len(uci) {
				break
			}
		}
		done <- seen
	}()
	ctx := context.Background()
	var stale Snapshot
	for ply, u := range uci {
		if ply == len(uci)/2 {
			var err error
			if stale, err = s.Game(ctx, bg.id); err != nil {
				t.Fatal(err)
			}
		}
		bg.move(t, s, ply, u)
		if ply == len(uci)/2 {
			// A reader that appends to its snapshot's moves gets its own
			// copy: the move played since is not overwritten.
			_ = append(stale.Moves, game.MoveRecord{Move: chess.NullMove})
		}
	}
	seen := <-done
	if len(seen) != len(uci) {
		t.Fatalf("stream saw %d moves, want %d", len(seen), len(uci))
	}
	for i, snap := range seen {
		if snap.Ply != i+1 {
			t.Errorf("snapshot %d at ply %d", i, snap.Ply)
		}
		moveList(snap)
	}
}
