package bot

import (
	"context"
	"testing"

	"satranc/engine/chess"
	"satranc/engine/opening"
)

// TestBookFirstMoves: from the start every level opens, over 50 seeds,
// with one of the four popular first moves, never with an odd one, and
// not always with the same.
func TestBookFirstMoves(t *testing.T) {
	allowed := map[string]bool{"e2e4": true, "d2d4": true, "c2c4": true, "g1f3": true}
	start := chess.StartPosition()
	for l := Easy; l <= Max; l++ {
		seen := map[string]int{}
		for seed := range uint64(50) {
			m, err := New(l, seed).Move(context.Background(), start, nil, Clock{})
			if err != nil {
				t.Fatal(err)
			}
			if !allowed[m.String()] {
				t.Errorf("%s seed %d opened with %s", l, seed, m)
			}
			seen[m.String()]++
		}
		if len(seen) < 2 || seen["e2e4"] < seen["c2c4"] {
			t.Errorf("%s first moves over 50 seeds: %v, want mostly 1.e4, and variety", l, seen)
		}
	}
}

// namedPositions returns the Zobrist keys of every position on the named
// lines, the start included.
func namedPositions() map[uint64]bool {
	named := map[uint64]bool{}
	for _, l := range opening.Lines() {
		p := chess.StartPosition()
		named[p.Hash()] = true
		for _, m := range l.Moves {
			p = p.Play(m)
			named[p.Hash()] = true
		}
	}
	return named
}

// TestBookFollowsNamedLines: two bots play from the start; while they play
// from their books every position is one of the named lines, the weaker
// levels leave the book within their depth, and Max plays some lines to
// their end. The same seeds play the same opening.
// The book is Move's: Think, the engine's answer for analysis and
// matches, searches (TestThinkHasNoBook).
func TestBookFollowsNamedLines(t *testing.T) {
	named := namedPositions()
	seeds := uint64(30)
	if raceEnabled {
		seeds = 8
	}
	for l := Easy; l <= Max; l++ {
		longest := 0
		openings := map[string]bool{}
		for seed := range seeds {
			white, black := New(l, seed), New(l, seed+1000)
			p := chess.StartPosition()
			line := ""
			ply := 0
			for ; ply < 40; ply++ {
				b := white
				if p.SideToMove() == chess.Black {
					b = black
				}
				m, ok := fromBook(&p, l, b.seed)
				if !ok {
					break
				}
				if got, err := b.Move(context.Background(), p, nil, Clock{}); got != m || err != nil {
					t.Fatalf("%s seed %d: Move played %s, %v; the book %s", l, seed, got, err, m)
				}
				p = p.Play(m)
				line += " " + m.String()
				if !named[p.Hash()] {
					t.Fatalf("%s seed %d: book line%s leaves the named lines", l, seed, line)
				}
			}
			if d := bookDepths[l]; d.hi > 0 && ply > d.hi {
				t.Errorf("%s seed %d: %d book plies, more than %d", l, seed, ply, d.hi)
			}
			longest = max(longest, ply)
			openings[line] = true
			// The same seeds, the same opening.
			q := chess.StartPosition()
			again := ""
			for range ply {
				seed := seed
				if q.SideToMove() == chess.Black {
					seed += 1000
				}
				m, _ := fromBook(&q, l, seed)
				q = q.Play(m)
				again += " " + m.String()
			}
			if again != line {
				t.Fatalf("%s seed %d: book line%s, then%s", l, seed, line, again)
			}
		}
		if len(openings) < int(seeds)/3 {
			t.Errorf("%s: %d different openings in %d games, want variety", l, len(openings), seeds)
		}
		if l >= Hard && longest < 10 {
			t.Errorf("%s: longest book line %d plies, want deeper lines", l, longest)
		}
	}
}

// TestBookLeftOut: the odd first moves and the lines named as traps are
// not in the book, and transpositions meet in one position.
func TestBookLeftOut(t *testing.T) {
	start := chess.StartPosition()
	for l := Easy; l <= Max; l++ {
		if moves, _ := bookMoves(&start, l); len(moves) != 4 {
			t.Errorf("%s: first moves in the book %v, want the four popular ones", l, moves)
		}
	}
	line := func(name string, moves ...string) opening.Line {
		l := opening.Line{Opening: opening.Opening{ECO: "A00", Name: name}}
		p := chess.StartPosition()
		for _, s := range moves {
			m, err := p.ParseUCI(s)
			if err != nil {
				t.Fatal(err)
			}
			l.Moves = append(l.Moves, m)
			p = p.Play(m)
		}
		return l
	}
	b := buildBook([]opening.Line{
		line("Queen's Pawn Game", "d2d4", "g8f6", "c2c4", "e7e6", "b1c3"),
		line("English Opening", "c2c4", "e7e6", "d2d4", "g8f6", "g1f3"),
		line("Barnes Opening: Fool's Mate", "f2f3", "e7e5", "g2g4", "d8h4"),
		line("Ware Opening: Meadow Hay Trap", "a2a4", "e7e5", "a1a3"),
	})
	if len(b[start.Hash()]) != 2 {
		t.Errorf("first moves %v, want d4 and c4 only (no trap, no mate)", b[start.Hash()])
	}
	p := start
	for _, s := range []string{"d2d4", "g8f6", "c2c4", "e7e6"} {
		m, _ := p.ParseUCI(s)
		p = p.Play(m)
	}
	if got := b[p.Hash()]; len(got) != 2 || got[0].lines != 1 || got[1].lines != 1 {
		t.Errorf("after the transposition: %v, want Nc3 and Nf3 once each", got)
	}
}

// TestThinkHasNoBook: Think searches even in the book.
func TestThinkHasNoBook(t *testing.T) {
	res := New(Hard, 1).Think(context.Background(), chess.StartPosition(), nil, Limits{Depth: 2}, nil)
	if res.Depth != 2 || res.Nodes == 0 {
		t.Errorf("Think from the start: depth %d, %d nodes; want a search", res.Depth, res.Nodes)
	}
}
