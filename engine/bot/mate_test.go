package bot

import (
	"context"
	"testing"

	"satranc/engine/chess"
)

// issue19FEN is the position of issue 19: White mates in one (Nb6#) and
// keeps a forced mate with many other moves, which the levels used to
// pick among at random.
const issue19FEN = "kr4N1/1R5Q/p4P2/PbpB4/2N5/2P2P2/5P2/R5K1 w - - 1 37"

// TestMateInOneEveryLevel: every level plays the mate in one of the
// issue's position, with every seed.
func TestMateInOneEveryLevel(t *testing.T) {
	p := mustFEN(t, issue19FEN)
	for l := Easy; l <= Max; l++ {
		for seed := range uint64(20) {
			m, err := New(l, seed).Move(context.Background(), p, nil, Clock{})
			if err != nil || !mates(p, m, nil) {
				t.Errorf("%s seed %d: Move = %s, %v; want a mate in one (Nb6#)", l, seed, m, err)
			}
		}
	}
}

// TestThinkMatesInOne: Think, the answer of `satranc uci --level L --seed
// N`, mates as Move does.
func TestThinkMatesInOne(t *testing.T) {
	p := mustFEN(t, issue19FEN)
	for l := Easy; l <= Max; l++ {
		for seed := range uint64(20) {
			res := New(l, seed).Think(context.Background(), p, nil, Limits{Depth: 8}, nil)
			if n, ok := MateIn(res.Score); !mates(p, res.Move, nil) || !ok || n != 1 {
				t.Errorf("%s seed %d: Think = %s, score %d; want a mate in one (Nb6#)", l, seed, res.Move, res.Score)
			}
		}
	}
}

// TestMateInOneSuite: positions with a mate in one, most with other good
// moves too, for either colour; every level plays a mate.
func TestMateInOneSuite(t *testing.T) {
	fens := []string{
		"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",                               // back rank
		"3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",                               // back rank, Black
		"6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1",                                   // smothered
		"k7/2P5/1K6/8/8/8/8/8 w - - 0 1",                                      // promotion
		"k7/8/1K6/8/8/8/8/1Q5R w - - 0 1",                                     // queen and rook, many winning moves
		"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", // scholar's mate
		"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",      // fool's mate
	}
	seeds := uint64(8)
	if raceEnabled {
		seeds = 2
	}
	for _, fen := range fens {
		p := mustFEN(t, fen)
		if _, ok := mateInOne(p, rootOf(p)); !ok {
			t.Fatalf("%s has no mate in one", fen)
		}
		for l := Easy; l <= Max; l++ {
			for seed := range seeds {
				m, err := New(l, seed).Move(context.Background(), p, nil, Clock{})
				if err != nil || !mates(p, m, nil) {
					t.Errorf("%s seed %d in %s: Move = %s, %v; want a mate in one", l, seed, fen, m, err)
				}
			}
		}
	}
}

// rootOf lists p's legal moves as unscored root moves.
func rootOf(p chess.Position) []RootMove {
	var root []RootMove
	for _, m := range p.LegalMoves() {
		root = append(root, RootMove{Move: m})
	}
	return root
}

// TestMateInTwo: the levels that see a mate in two play it by the
// shortest way: after their move every defence allows a mate in one, which
// they then play.
func TestMateInTwo(t *testing.T) {
	fens := []string{
		"7k/8/8/8/8/8/R7/1R4K1 w - - 0 1",       // rook ladder
		"k7/8/2K5/8/8/8/8/7R w - - 0 1",         // king and rook
		"r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", // mate in three: Medium's horizon is too short, so from Hard
	}
	seeds := uint64(10)
	if raceEnabled {
		seeds = 2
	}
	for i, fen := range fens {
		from := Medium
		if i == 2 {
			from = Hard
		}
		for l := from; l <= Max; l++ {
			for seed := range seeds {
				p := mustFEN(t, fen)
				b := New(l, seed)
				for moves := 0; ; moves++ {
					m, err := b.Move(context.Background(), p, nil, Clock{})
					if err != nil {
						t.Fatal(err)
					}
					if mates(p, m, nil) {
						break
					}
					if moves == i+1 {
						t.Errorf("%s seed %d in %s: no mate after %d moves", l, seed, fen, moves+1)
						break
					}
					p = p.Play(m)
					// The defence: the longest, by a full search.
					reply := NewEngine(1).Search(context.Background(), p, nil, Limits{Depth: 6}, nil).Move
					p = p.Play(reply)
				}
			}
		}
	}
}

// TestChooseMates: a mate found is played by the shortest way at every
// level, and when every move is mated the longest defence is made.
func TestChooseMates(t *testing.T) {
	a, b, c := chess.NewMove(chess.A1, chess.A2), chess.NewMove(chess.B1, chess.B2), chess.NewMove(chess.C1, chess.C2)
	mateIn := func(n int) int { return mateScore - (2*n - 1) }
	shortest := []RootMove{{a, mateIn(2), true}, {b, mateIn(3), true}, {c, mateIn(4), true}}
	mated := []RootMove{{a, -mateScore + 10, true}, {b, -mateScore + 8, true}, {c, -mateScore + 2, true}}
	for l := Easy; l <= Max; l++ {
		st := styles[l]
		for r := range uint64(200) {
			if m := st.choose(shortest, splitmix(r)); m != a {
				t.Fatalf("%s: chose %s among mates in 2, 3 and 4, want the mate in 2", l, m)
			}
			if m := st.choose(mated, splitmix(r)); m != a {
				t.Fatalf("%s: chose %s when mated, want the longest defence", l, m)
			}
		}
	}
}
