package bot

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"satranc/engine/chess"
)

// Level is a computer opponent's strength.
type Level uint8

// The levels. Easy, Medium and Hard carry the fixed ratings of SPEC section
// 6; Max is the engine at full strength, for analysis and calibration.
const (
	Easy Level = iota + 1
	Medium
	Hard
	Max
)

// ErrUnknownLevel is wrapped by ParseLevel for a name it does not know.
var ErrUnknownLevel = errors.New("bot: unknown level")

// ParseLevel reads "easy", "medium", "hard" or "max" (any case).
func ParseLevel(s string) (Level, error) {
	for l := Easy; l <= Max; l++ {
		if strings.EqualFold(s, l.String()) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("%w: %q: want easy, medium, hard or max", ErrUnknownLevel, s)
}

// String returns the level's name in lower case.
func (l Level) String() string {
	switch l {
	case Easy:
		return "easy"
	case Medium:
		return "medium"
	case Hard:
		return "hard"
	case Max:
		return "max"
	}
	return "invalid"
}

// Rating returns the level's fixed rating (SPEC section 6), or 0 for Max,
// which has none.
func (l Level) Rating() int {
	switch l {
	case Easy:
		return 800
	case Medium:
		return 1300
	case Hard:
		return 1700
	}
	return 0
}

// style is how a level weakens the search, in human ways: a shallow
// horizon (depth and nodes), misjudgement (noise in the evaluation), now
// and then a plausible second-best move (a choice among the moves within
// margin of the best, weighted by exp(-loss/temperature)) and, at Easy,
// lapses that overlook the opponent's reply (lapse.go). The node
// limits make the levels independent of the machine's speed and make them
// reproducible: same position, same seed, same move.
type style struct {
	depth       int
	nodes       uint64
	noise       int     // centipawns of evaluation noise, ±
	margin      int     // centipawns: moves this much worse than the best are never chosen
	temperature float64 // centipawns: how readily a worse move is chosen
	// lapse is the chance per move, in thousandths, of a moment of
	// inattention: the move is judged by what it does on the board and
	// whether the piece moved is safe on its new square, not by the
	// opponent's reply (lapse.go).
	lapse int
}

// styles is indexed by Level. The numbers come from the calibration
// matches in docs/bots.md.
var styles = [...]style{
	Easy:   {depth: 2, nodes: 6_000, noise: 40, margin: 110, temperature: 40, lapse: 220}, // aims at 2–10% v Stockfish 1350, 5+0.05
	Medium: {depth: 3, nodes: 10_000, noise: 40, margin: 100, temperature: 30},            // aims at 35–55% v Stockfish 1350, 5+0.05
	Hard:   {depth: 5, nodes: 80_000, noise: 25, margin: 50, temperature: 15},             // aims at 40–60% v Stockfish 1700, 10+0.1
	Max:    {},
}

// choose picks the move to play from the root moves of a finished search,
// best first: the best at Max, otherwise one of the exactly scored moves
// within the level's margin of the best, the better ones more likely. r is
// the random value that decides.
//
// Mates are a class apart and never enter that choice, since a mate score
// is no number of centipawns: when the search found a forced mate for the
// bot, it plays the shortest one it found (the best root move), as a
// person who sees a mate plays it; when every move is mated, it makes the
// longest defence. And a move that walks into a mate the search saw is
// never among the centipawn choices.
func (st style) choose(root []RootMove, r uint64) chess.Move {
	if len(root) == 0 {
		return chess.NullMove
	}
	best := root[0]
	if _, mate := MateIn(best.Score); st.margin <= 0 || !best.Exact || mate {
		return best.Move
	}
	var weights [chess.MaxMoves]float64
	total := 0.0
	n := 0
	for i, rm := range root {
		if _, mate := MateIn(rm.Score); mate || !rm.Exact || rm.Score < best.Score-st.margin {
			break
		}
		w := math.Exp(float64(rm.Score-best.Score) / st.temperature)
		weights[i] = w
		total += w
		n++
	}
	x := float64(r>>11) / (1 << 53) * total
	for i := range n {
		x -= weights[i]
		if x < 0 {
			return root[i].Move
		}
	}
	return root[n-1].Move
}
