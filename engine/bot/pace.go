package bot

import (
	"time"

	"satranc/engine/chess"
)

// PracticePace is the pace of a computer opponent at level l in a
// practice game: as long as a person of its level takes. Weaker players
// move faster and use less of their clock; in an untimed game every level
// answers within 0.3 to 2 seconds.
func PracticePace(l Level) Pace {
	switch l {
	case Easy:
		return Pace{Min: 300 * time.Millisecond, Max: 3 * time.Second, Untimed: 600 * time.Millisecond, Scale: 0.5}
	case Medium:
		return Pace{Min: 300 * time.Millisecond, Max: 5 * time.Second, Untimed: 900 * time.Millisecond, Scale: 0.7}
	}
	return Pace{Min: 300 * time.Millisecond, Max: 6 * time.Second, Untimed: 1200 * time.Millisecond, Scale: 0.85}
}

// TablePace is the pace of a computer player at level l at a public
// table, where it must pass for a person of its level at blitz: the
// weaker the player, the quicker the moves and the less of the clock
// used; never under half a second, and faster as the clock runs low.
func TablePace(l Level) Pace {
	switch l {
	case Easy:
		return Pace{Min: 500 * time.Millisecond, Max: 4 * time.Second, Scale: 0.5}
	case Medium:
		return Pace{Min: 500 * time.Millisecond, Max: 6 * time.Second, Scale: 0.7}
	}
	return Pace{Min: 600 * time.Millisecond, Max: 8 * time.Second, Scale: 0.85}
}

// MoveDelay returns how long the move m in p should appear to take: the
// time Delay gives for the clock, weighed by how much thought the move
// needs (moveWeight), then kept within the same bounds as Delay's. A
// forced move, a book move or a recapture comes quickly; a move in a
// complex middlegame takes longer.
func (pc Pace) MoveDelay(p *chess.Position, m chess.Move, c Clock, r uint64) time.Duration {
	d := pc.raw(c, p.FullmoveNumber(), r)
	return pc.clamp(time.Duration(float64(d)*moveWeight(p, m)), c)
}

// moveWeight is how much thought a person gives to m in p, as a factor
// of their usual thinking time: little for the only legal move, a move
// from the book, a recapture or the capture of a piece left hanging; for
// other moves between about 0.6 and 1.6, more with more legal moves and
// with more pieces on the board (a middlegame), less when in check.
func moveWeight(p *chess.Position, m chess.Move) float64 {
	var buf [chess.MaxMoves]chess.Move
	n := len(p.AppendLegalMoves(buf[:0]))
	switch {
	case n <= 1:
		return 0.15
	case inBook(p, m):
		return 0.3
	case isRecapture(p, m):
		return 0.35
	case p.IsCapture(m) && see(p, m) >= 300:
		return 0.5 // a piece left hanging
	}
	pieces := 0
	for c := chess.White; c <= chess.Black; c++ {
		for t := chess.Knight; t <= chess.Queen; t++ {
			pieces += p.Pieces(c, t).Count()
		}
	}
	w := 0.6 + 0.5*min(max(float64(n-10)/30, 0), 1) + 0.5*min(float64(pieces)/14, 1)
	if p.InCheck() {
		w *= 0.7
	}
	return w
}

// isRecapture reports whether the capture m restores the material
// balance: the side to move is down about what m takes back, as after an
// exchange the opponent began.
func isRecapture(p *chess.Position, m chess.Move) bool {
	if !p.IsCapture(m) {
		return false
	}
	victim := chess.Pawn
	if m.Kind() != chess.EnPassant {
		victim = p.PieceAt(m.To()).Type()
	}
	us := p.SideToMove()
	balance := material(p, us) - material(p, us.Other())
	return balance < 0 && balance+seeValue[victim] >= -50 && balance+seeValue[victim] <= 50
}

// material is the value of c's pieces, kings aside, by seeValue.
func material(p *chess.Position, c chess.Color) int {
	v := 0
	for t := chess.Pawn; t <= chess.Queen; t++ {
		v += p.Pieces(c, t).Count() * seeValue[t]
	}
	return v
}
