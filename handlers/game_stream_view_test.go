package handlers

import (
	"slices"
	"testing"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// TestSANMovesFollowTheGame: the moves a stream keeps in SAN are the
// snapshot's after every move, in the letters asked for, and start afresh
// when the moves are not those kept (another language, a game that is not
// the continuation).
func TestSANMovesFollowTheGame(t *testing.T) {
	snapAfter := func(ucis ...string) play.Snapshot {
		t.Helper()
		s := play.Snapshot{Start: chess.StartPosition()}
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
	game1 := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}
	var kept sanMoves
	for n := range len(game1) + 1 {
		snap := snapAfter(game1[:n]...)
		if got, want := kept.of(snap, chess.English).Rows(), moveRows(snap, chess.English); !slices.Equal(got, want) {
			t.Errorf("after %d moves: %+v, want %+v", n, got, want)
		}
	}
	for _, tc := range []struct {
		name    string
		snap    play.Snapshot
		letters chess.Letters
	}{
		{"Turkish letters", snapAfter(game1...), chess.Turkish},
		{"another game, longer", snapAfter("e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"), chess.Turkish},
		{"another game", snapAfter("d2d4", "d7d5", "g1f3", "g8f6"), chess.Turkish},
		{"fewer moves", snapAfter("d2d4"), chess.Turkish},
		{"no moves", snapAfter(), chess.English},
	} {
		if got, want := kept.of(tc.snap, tc.letters).Rows(), moveRows(tc.snap, tc.letters); !slices.Equal(got, want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, want)
		}
	}
}

// moveRows returns the rows of snap's move list in letters l, built
// afresh.
func moveRows(snap play.Snapshot, l chess.Letters) []views.MoveRow {
	list := views.NewMoveList(snap.Start, 0)
	for _, san := range snap.SAN(l) {
		list.Add(san)
	}
	return list.Rows()
}
