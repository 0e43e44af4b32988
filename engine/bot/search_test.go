package bot

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"satranc/engine/chess"
)

func mustFEN(tb testing.TB, fen string) chess.Position {
	tb.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func isLegal(p chess.Position, m chess.Move) bool {
	var buf [chess.MaxMoves]chess.Move
	return slices.Contains(p.AppendLegalMoves(buf[:0]), m)
}

// TestSearchFindsMates checks that the search announces the shortest mate
// and that its principal variation ends in checkmate.
func TestSearchFindsMates(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		mate int // moves
	}{
		{"back rank", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1},
		{"queen back rank", "1r4k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 1", 1},
		{"black back rank", "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", 1},
		{"rook ladder", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2},
		{"king and rook", "k7/8/2K5/8/8/8/8/7R w - - 0 1", 2},
		{"Legal's mate pattern", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2},
		{"black rook sacrifice", "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2},
		{"rook lift", "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			res := NewEngine(1).Search(context.Background(), p, nil, Limits{Depth: 2*tc.mate + 2}, nil)
			if got, ok := MateIn(res.Score); !ok || got != tc.mate {
				t.Fatalf("Search(%s) score %d = mate %d (%v), want mate in %d; pv %v", tc.fen, res.Score, got, ok, tc.mate, res.PV)
			}
			if len(res.PV) != 2*tc.mate-1 || res.PV[0] != res.Move {
				t.Fatalf("Search(%s) pv = %v, want %d plies starting with %s", tc.fen, res.PV, 2*tc.mate-1, res.Move)
			}
			q := p
			for _, m := range res.PV {
				if !isLegal(q, m) {
					t.Fatalf("pv move %s illegal in %s", m, q.FEN())
				}
				q = q.Play(m)
			}
			if q.Termination() != chess.Checkmate {
				t.Errorf("pv %v ends in %s, want checkmate", res.PV, q.FEN())
			}
		})
	}
}

func TestSearchAvoidsBlunders(t *testing.T) {
	tests := []struct {
		name, fen string
		want      string
	}{
		{"take the hanging queen", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"},
		{"save the attacked queen, not the pawn", "4k3/8/8/3r4/8/3Q4/6P1/4K3 w - - 0 1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			res := NewEngine(1).Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
			if tc.want != "" && res.Move.String() != tc.want {
				t.Errorf("Search(%s) = %s, want %s", tc.fen, res.Move, tc.want)
			}
			if tc.want == "" && res.Move.From() != chess.D3 {
				t.Errorf("Search(%s) = %s, want a queen move", tc.fen, res.Move)
			}
		})
	}
}

// TestSearchRepetition checks that the search knows the game's history:
// a queen down, it heads for the repetition it is offered.
func TestSearchRepetition(t *testing.T) {
	a := mustFEN(t, "q3k3/8/8/8/8/8/8/4K1N1 w - - 0 1")
	var keys []uint64
	p := a
	for _, uci := range []string{"g1f3", "e8f8", "f3g1", "f8e8"} {
		m, err := p.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, p.Hash())
		p = p.Play(m)
	}
	if p.Hash() != a.Hash() {
		t.Fatal("the moves do not come back to the start")
	}
	res := NewEngine(1).Search(context.Background(), p, keys, Limits{Depth: 4}, nil)
	if res.Move.String() != "g1f3" || res.Score != 0 {
		t.Errorf("Search with history = %s (score %d), want g1f3 repeating (score 0)", res.Move, res.Score)
	}
	res = NewEngine(1).Search(context.Background(), p, nil, Limits{Depth: 4}, nil)
	if res.Score > -500 {
		t.Errorf("Search without history score = %d, want a queen down", res.Score)
	}
}

// randomPositions returns n positions from seeded random games.
func randomPositions(n int, seed uint64) []chess.Position {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []chess.Position
	var buf [chess.MaxMoves]chess.Move
	for len(out) < n {
		p := chess.StartPosition()
		for ply := 0; ply < 200 && len(out) < n; ply++ {
			moves := p.AppendLegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
			if rng.IntN(3) == 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

func TestNeverIllegal(t *testing.T) {
	n := 1500
	if testing.Short() || raceEnabled {
		n = 200
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	e := NewEngine(1)
	for i, p := range randomPositions(n, 7) {
		ctx, lim := context.Background(), Limits{Nodes: 150}
		switch i % 3 {
		case 1:
			ctx = done // cancelled before it starts
		case 2:
			lim = Limits{Depth: 1}
		}
		res := e.Search(ctx, p, nil, lim, nil)
		legal := p.LegalMoves()
		if len(legal) == 0 {
			if res.Move != chess.NullMove {
				t.Fatalf("Search(%s) = %s, want no move", p.FEN(), res.Move)
			}
			continue
		}
		if !slices.Contains(legal, res.Move) {
			t.Fatalf("Search(%s, case %d) = %s, not a legal move", p.FEN(), i%3, res.Move)
		}
		for j, m := range res.PV {
			if !isLegal(p, m) {
				t.Fatalf("Search(%s) pv %v: move %d illegal", p.FEN(), res.PV, j)
			}
			p = p.Play(m)
		}
	}
}

func TestSearchStops(t *testing.T) {
	p := chess.StartPosition()
	t.Run("hard limit", func(t *testing.T) {
		start := time.Now()
		res := NewEngine(1).Search(context.Background(), p, nil, Limits{Hard: 50 * time.Millisecond}, nil)
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("Search with Hard 50ms took %v", d)
		}
		if !isLegal(p, res.Move) {
			t.Errorf("Search = %s, not legal", res.Move)
		}
	})
	t.Run("context", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		res := NewEngine(1).Search(ctx, p, nil, Limits{}, nil)
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("Search cancelled after 50ms took %v", d)
		}
		if !isLegal(p, res.Move) {
			t.Errorf("Search = %s, not legal", res.Move)
		}
	})
	t.Run("nodes", func(t *testing.T) {
		res := NewEngine(1).Search(context.Background(), p, nil, Limits{Nodes: 5000}, nil)
		if res.Nodes > 5000 {
			t.Errorf("Search with Nodes 5000 visited %d", res.Nodes)
		}
	})
}

func TestMateIn(t *testing.T) {
	tests := []struct {
		score, want int
		ok          bool
	}{
		{mateScore - 1, 1, true},
		{mateScore - 3, 2, true},
		{-mateScore + 2, -1, true},
		{-mateScore + 4, -2, true},
		{150, 0, false},
	}
	for _, tc := range tests {
		if got, ok := MateIn(tc.score); got != tc.want || ok != tc.ok {
			t.Errorf("MateIn(%d) = %d, %v, want %d, %v", tc.score, got, ok, tc.want, tc.ok)
		}
	}
}
