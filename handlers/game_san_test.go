package handlers

import (
	"slices"
	"sync"
	"testing"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
)

// snapAfter returns the snapshot of game id after ucis from the start.
func snapAfter(t *testing.T, id int64, ucis ...string) *play.Snapshot {
	t.Helper()
	s := &play.Snapshot{ID: id, Start: chess.StartPosition()}
	p := s.Start
	for _, uci := range ucis {
		m, err := p.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		s.Moves, p = append(s.Moves, game.MoveRecord{Move: m}), p.Play(m)
	}
	s.Position, s.Ply = p, len(s.Moves)
	return s
}

// TestGameSANsFollowTheGame: the moves a game's streams share in SAN are
// the snapshot's after every move, in the letters asked for; a list handed
// out never changes after, not even when the entry starts afresh for
// moves that do not continue it; and a game no stream holds has none.
func TestGameSANsFollowTheGame(t *testing.T) {
	var sans gameSANs
	if got := sans.of(snapAfter(t, 1, "e2e4"), chess.English); got != nil {
		t.Errorf("a game no stream holds: %q, want nil", got)
	}
	sans.hold(1)
	game1 := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}
	handed := map[chess.Letters][][]string{}
	for n := range len(game1) + 1 {
		snap := snapAfter(t, 1, game1[:n]...)
		for _, l := range []chess.Letters{chess.English, chess.Turkish} {
			got := sans.of(snap, l)
			if want := snap.SAN(l); !slices.Equal(got, want) {
				t.Errorf("after %d moves in %s: %q, want %q", n, l, got, want)
			}
			handed[l] = append(handed[l], got)
		}
	}
	older := snapAfter(t, 1, game1[:2]...)
	if got := sans.of(older, chess.Turkish); !slices.Equal(got, older.SAN(chess.Turkish)) {
		t.Errorf("an older snapshot: %q", got)
	}
	other := snapAfter(t, 1, "d2d4", "d7d5", "g1f3", "g8f6", "c2c4", "e7e6", "b1c3")
	if got := sans.of(other, chess.English); !slices.Equal(got, other.SAN(chess.English)) {
		t.Errorf("moves that do not continue the entry's: %q, want %q", got, other.SAN(chess.English))
	}
	for l, lists := range handed {
		for n, list := range lists {
			if want := snapAfter(t, 1, game1[:n]...).SAN(l); !slices.Equal(list, want) {
				t.Errorf("the list handed out after %d moves in %s is now %q, want %q", n, l, list, want)
			}
		}
	}
	sans.hold(1)
	sans.release(1)
	if sans.of(other, chess.English) == nil {
		t.Error("the entry went with one of its two streams")
	}
	sans.release(1)
	if got := sans.of(other, chess.English); got != nil {
		t.Errorf("after the last stream: %q, want nil", got)
	}
}

// TestGameSANsShared has a game's streams take its moves while they grow
// and read every list they were handed (run with -race).
func TestGameSANsShared(t *testing.T) {
	var sans gameSANs
	sans.hold(7)
	ucis := []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6"}
	snaps := make([]*play.Snapshot, len(ucis)+1)
	for n := range snaps {
		snaps[n] = snapAfter(t, 7, ucis[:n]...)
	}
	var wg sync.WaitGroup
	for stream := range 8 {
		l := chess.Letters(stream % 2)
		wg.Go(func() {
			var lists [][]string
			for _, snap := range snaps {
				lists = append(lists, sans.of(snap, l))
			}
			for n, list := range lists {
				if want := snaps[n].SAN(l); !slices.Equal(list, want) {
					t.Errorf("stream %d after %d moves: %q, want %q", stream, n, list, want)
				}
			}
		})
	}
	wg.Wait()
}
