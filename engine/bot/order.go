package bot

import "satranc/engine/chess"

// seeValue is the piece value used by static exchange evaluation and
// MVV-LVA ordering.
var seeValue = [7]int{0, 100, 320, 330, 500, 900, 20000}

// see returns the static exchange evaluation of the capture m: the material
// the side to move wins (or, if negative, loses) if both sides keep
// recapturing on the destination square with their least valuable piece,
// each free to stop when that pays. This is the swap algorithm of
// https://www.chessprogramming.org/SEE_-_The_Swap_Algorithm.
func see(p *chess.Position, m chess.Move) int {
	from, to := m.From(), m.To()
	var gain [32]int
	occ := p.Occupied()
	victim := p.PieceAt(to).Type()
	if m.Kind() == chess.EnPassant {
		victim = chess.Pawn
		occ &^= chess.SquareBB(to ^ 8)
	}
	gain[0] = seeValue[victim]
	attacker := p.PieceAt(from).Type()
	fromSet := chess.SquareBB(from)
	side := p.SideToMove()
	d := 0
	for {
		d++
		gain[d] = seeValue[attacker] - gain[d-1]
		if max(-gain[d-1], gain[d]) < 0 || d == len(gain)-1 {
			break
		}
		occ &^= fromSet
		side = side.Other()
		attackers := p.AttackersTo(to, occ) & p.ColorPieces(side)
		if attackers == 0 {
			break
		}
		for t := chess.Pawn; t <= chess.King; t++ {
			if bb := attackers & p.Pieces(side, t); bb != 0 {
				fromSet = chess.SquareBB(bb.First())
				attacker = t
				break
			}
		}
	}
	for d--; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}

// Move-ordering bands (https://www.chessprogramming.org/Move_Ordering):
// the hash move, then winning and equal captures and queen promotions by
// MVV-LVA, then the killers, then quiet moves by history, then losing
// captures.
const (
	orderHash      = 1 << 30
	orderGoodTake  = 1 << 28
	orderKiller1   = 1 << 27
	orderKiller2   = orderKiller1 - 1
	orderBadTake   = -(1 << 28)
	historyMaximum = 1 << 20
)

// scoreMoves fills scores for moves at the given ply.
func (s *searcher) scoreMoves(p *chess.Position, moves []chess.Move, scores []int, ttMove chess.Move, ply int) {
	side := p.SideToMove()
	for i, m := range moves {
		switch {
		case m == ttMove:
			scores[i] = orderHash
		case p.IsCapture(m) || m.Promotion() == chess.Queen:
			scores[i] = captureScore(p, m)
		case m == s.killers[ply][0]:
			scores[i] = orderKiller1
		case m == s.killers[ply][1]:
			scores[i] = orderKiller2
		default:
			scores[i] = int(s.history[side][m.From()][m.To()])
		}
	}
}

// captureScore orders a capture or promotion by MVV-LVA, in the good band
// unless the exchange loses material.
func captureScore(p *chess.Position, m chess.Move) int {
	victim := p.PieceAt(m.To()).Type()
	if m.Kind() == chess.EnPassant {
		victim = chess.Pawn
	}
	attacker := p.PieceAt(m.From()).Type()
	mvvlva := seeValue[victim]*8 - int(attacker)
	if m.Promotion() == chess.Queen {
		mvvlva += seeValue[chess.Queen] * 8
	}
	if seeValue[victim] < seeValue[attacker] && m.Promotion() == chess.NoPieceType && see(p, m) < 0 {
		return orderBadTake + mvvlva
	}
	return orderGoodTake + mvvlva
}

// pickNext moves the best-scored move from i onwards to position i
// (selection sort, lazily: most nodes cut off after a few moves).
func pickNext(moves []chess.Move, scores []int, i int) {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if scores[j] > scores[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	scores[i], scores[best] = scores[best], scores[i]
}
