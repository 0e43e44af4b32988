package bot

import (
	"math"
	"strings"
	"sync"

	"satranc/engine/chess"
	"satranc/engine/opening"
)

// The opening book. A person opens with a line they know, and the bots
// do too: their book is the named lines of engine/opening (the
// lichess-org/chess-openings data set), from the standard start. In a
// position reached by those lines (by any order of moves), the book moves
// are the moves that continue a named line, each weighted by how many
// named lines go through it: the main lines, which have the most named
// variations, come most often, as they do over the board. Only four first
// moves are played (1.e4, 1.d4, 1.c4 and 1.Nf3, the most popular by far;
// never 1.a3 or 1.Na3, although they have names), the common replies to
// them get a boost, and rare side lines (under bookShare of the lines
// through a position) are left out. Lines named as traps or mates are not
// in the book: a person does not aim for them.
//
// A bot plays from the book while the position is in it and the game is
// younger than the bot's book depth for the game, drawn from its level's
// range with the game's seed (Easy knows the first few moves, Max every
// line to its end), then leaves it and thinks, as a person does. Every
// choice comes from the bot's seed and the position: the same seed plays
// the same opening.

// bookMove is a move of the book with the number of named lines through it.
type bookMove struct {
	move  chess.Move
	lines int
}

// bookShare is the least share of the lines through a position that a
// move needs to be in the book.
const bookShare = 0.02

// bookFocus is, per level, the power to which a move's count of lines is
// raised to weigh it: above 1, the main lines come more often than their
// share of named lines, as they do among stronger players, who meet the
// gambits and side lines less.
var bookFocus = [...]float64{Easy: 1, Medium: 1.25, Hard: 1.5, Max: 1.5}

// bookDepth is the range of a level's book depth, in plies of the game:
// a game leaves the book at a ply drawn from [lo, hi]. hi 0: no limit.
type bookDepth struct{ lo, hi int }

var bookDepths = [...]bookDepth{
	Easy:   {4, 6},
	Medium: {8, 14},
	Hard:   {12, 24},
	Max:    {0, 0},
}

// firstMoves are the first moves the bots open with, in UCI, and how
// often (per cent) at each level: weaker players open with 1.e4 more.
var firstMoves = map[string][Max + 1]float64{
	"e2e4": {Easy: 60, Medium: 50, Hard: 45, Max: 45},
	"d2d4": {Easy: 30, Medium: 35, Hard: 35, Max: 35},
	"c2c4": {Easy: 5, Medium: 8, Hard: 10, Max: 10},
	"g1f3": {Easy: 5, Medium: 7, Hard: 10, Max: 10},
}

// commonReplies are the usual answers to the first moves (first move,
// then reply, in UCI): their weight is doubled.
var commonReplies = map[string]bool{
	"e2e4 e7e5": true, "e2e4 c7c5": true, "e2e4 e7e6": true, "e2e4 c7c6": true, "e2e4 d7d5": true,
	"d2d4 d7d5": true, "d2d4 g8f6": true,
	"c2c4 e7e5": true, "c2c4 g8f6": true, "c2c4 c7c5": true,
	"g1f3 d7d5": true, "g1f3 g8f6": true,
}

// book maps the Zobrist key of each position of the named lines to the
// moves that continue them there.
var book = sync.OnceValue(func() map[uint64][]bookMove { return buildBook(opening.Lines()) })

// buildBook counts, for each position of lines, the lines through each
// of its moves. Lines named as traps or mates are left out.
func buildBook(lines []opening.Line) map[uint64][]bookMove {
	b := make(map[uint64][]bookMove, 8192)
	for _, l := range lines {
		if strings.Contains(l.Name, "Trap") || strings.Contains(l.Name, "Mate") {
			continue
		}
		p := chess.StartPosition()
		for _, m := range l.Moves {
			k := p.Hash()
			moves := b[k]
			i := 0
			for i < len(moves) && moves[i].move != m {
				i++
			}
			if i == len(moves) {
				moves = append(moves, bookMove{move: m})
			}
			moves[i].lines++
			b[k] = moves
			p = p.Play(m)
		}
	}
	return b
}

// plyOf returns the ply of the game at p, counted from the standard start.
func plyOf(p *chess.Position) int {
	ply := 2 * (p.FullmoveNumber() - 1)
	if p.SideToMove() == chess.Black {
		ply++
	}
	return ply
}

// bookDepthFor returns the ply at which a game with seed leaves the book
// at level l; 0 means never (while the position is in the book).
func bookDepthFor(l Level, seed uint64) int {
	d := bookDepths[l]
	if d.hi <= 0 {
		return 0
	}
	return d.lo + int(splitmix(seed^0xb00c)%uint64(d.hi-d.lo+1))
}

// bookMoves returns the book's moves in p for level l with their weights,
// or none when p is not in the book.
func bookMoves(p *chess.Position, l Level) ([]chess.Move, []float64) {
	entries := book()[p.Hash()]
	if len(entries) == 0 {
		return nil, nil
	}
	start := chess.StartPosition()
	atStart := p.Hash() == start.Hash()
	var prefix string
	if plyOf(p) == 1 {
		// The reply to a first move: find which one from the position.
		for first := range firstMoves {
			m, err := start.ParseUCI(first)
			if err == nil {
				if q := start.Play(m); q.Hash() == p.Hash() {
					prefix = first + " "
				}
			}
		}
	}
	total := 0
	for _, e := range entries {
		total += e.lines
	}
	var moves []chess.Move
	var weights []float64
	for _, e := range entries {
		var w float64
		switch {
		case atStart:
			w = firstMoves[e.move.String()][l]
		case float64(e.lines) < bookShare*float64(total):
			w = 0
		default:
			w = math.Pow(float64(e.lines), bookFocus[l])
			if commonReplies[prefix+e.move.String()] {
				w *= 2
			}
		}
		if w > 0 {
			moves = append(moves, e.move)
			weights = append(weights, w)
		}
	}
	return moves, weights
}

// fromBook returns the book move a bot at level l with seed plays in p,
// if the game is still in its book.
func fromBook(p *chess.Position, l Level, seed uint64) (chess.Move, bool) {
	if depth := bookDepthFor(l, seed); depth > 0 && plyOf(p) >= depth {
		return chess.NullMove, false
	}
	moves, weights := bookMoves(p, l)
	if len(moves) == 0 {
		return chess.NullMove, false
	}
	total := 0.0
	for _, w := range weights {
		total += w
	}
	x := float64(splitmix(seed^p.Hash()^0xb00c)>>11) / (1 << 53) * total
	for i, w := range weights {
		x -= w
		if x < 0 {
			return moves[i], true
		}
	}
	return moves[len(moves)-1], true
}

// inBook reports whether m is one of the book's moves in p at any level:
// a move a person plays from memory, quickly.
func inBook(p *chess.Position, m chess.Move) bool {
	moves, _ := bookMoves(p, Max)
	for _, b := range moves {
		if b == m {
			return true
		}
	}
	return false
}
