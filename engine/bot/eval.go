package bot

import (
	"satranc/engine/chess"
)

// Evaluation terms beyond the PeSTO tables, in centipawns as (middlegame,
// endgame) pairs. The ideas are the classic ones described on
// https://www.chessprogramming.org/Evaluation: mobility, pawn structure
// (https://www.chessprogramming.org/Pawn_Structure) and king safety
// (https://www.chessprogramming.org/King_Safety).
const (
	fileABB chess.Bitboard = 0x0101010101010101
	fileHBB chess.Bitboard = fileABB << 7

	tempoMG = 12

	doubledMG, doubledEG   = -10, -25
	isolatedMG, isolatedEG = -10, -15
	bishopPairMG           = 25
	bishopPairEG           = 45
	rookOpenMG             = 20
	rookSemiOpenMG         = 10
	shieldNearMG           = 12
	shieldFarMG            = 6
)

var (
	// Mobility weight per piece type and the count it is centred on.
	mobilityMG     = [7]int{0, 0, 4, 5, 2, 1, 0}
	mobilityEG     = [7]int{0, 0, 4, 5, 4, 2, 0}
	mobilityCentre = [7]int{0, 0, 4, 6, 7, 13, 0}
	// Passed-pawn bonus by rank counted from the pawn's own side (0 = first).
	passedMG = [8]int{0, 0, 0, 5, 10, 20, 35, 0}
	passedEG = [8]int{0, 5, 5, 10, 20, 35, 60, 0}
	// Weight of an attack on the enemy king's zone per attacking piece type.
	kingAttackWeight = [7]int{0, 0, 2, 2, 3, 5, 0}
)

// Precomputed masks.
var (
	fileMask     [8]chess.Bitboard
	adjacentMask [8]chess.Bitboard     // the files either side
	passedMask   [2][64]chess.Bitboard // squares ahead on this and adjacent files
	shieldMask   [2][64][2]chess.Bitboard
	centreDist   [64]int
)

func init() {
	for f := range 8 {
		fileMask[f] = fileABB << f
	}
	for f := range 8 {
		if f > 0 {
			adjacentMask[f] |= fileMask[f-1]
		}
		if f < 7 {
			adjacentMask[f] |= fileMask[f+1]
		}
	}
	for s := range chess.Square(64) {
		f, r := s.File(), s.Rank()
		files := fileMask[f] | adjacentMask[f]
		for rr := range 8 {
			row := chess.Bitboard(0xff) << (8 * rr)
			if rr > r {
				passedMask[chess.White][s] |= files & row
			}
			if rr < r {
				passedMask[chess.Black][s] |= files & row
			}
			if rr == r+1 {
				shieldMask[chess.White][s][0] = files & row
			}
			if rr == r+2 {
				shieldMask[chess.White][s][1] = files & row
			}
			if rr == r-1 {
				shieldMask[chess.Black][s][0] = files & row
			}
			if rr == r-2 {
				shieldMask[chess.Black][s][1] = files & row
			}
		}
		df, dr := max(3-f, f-4), max(3-r, r-4)
		centreDist[s] = df + dr
	}
}

// pawnAttacks returns the squares attacked by c's pawns in pawns.
func pawnAttacks(c chess.Color, pawns chess.Bitboard) chess.Bitboard {
	if c == chess.White {
		return (pawns&^fileABB)<<7 | (pawns&^fileHBB)<<9
	}
	return (pawns&^fileABB)>>9 | (pawns&^fileHBB)>>7
}

// Evaluate returns the static evaluation of p in centipawns from the point
// of view of the side to move: positive when the side to move stands better.
// It does not look at checkmate or stalemate; the search does.
func Evaluate(p *chess.Position) int {
	var mg, eg, phase int
	var material [2]int // non-pawn material, for scaling
	for c := chess.White; c <= chess.Black; c++ {
		for t := chess.Pawn; t <= chess.King; t++ {
			bb := p.Pieces(c, t)
			for bb != 0 {
				s := bb.PopFirst()
				mg += mgPSQT[c][t][s]
				eg += egPSQT[c][t][s]
				phase += phaseInc[t]
				if t != chess.Pawn && t != chess.King {
					material[c] += egValue[t]
				}
			}
		}
	}
	for c := chess.White; c <= chess.Black; c++ {
		m, e := sideTerms(p, c)
		if c == chess.White {
			mg, eg = mg+m, eg+e
		} else {
			mg, eg = mg-m, eg-e
		}
	}
	if p.SideToMove() == chess.White {
		mg += tempoMG
	} else {
		mg -= tempoMG
	}

	phase = min(phase, 24)
	score := (mg*phase + eg*(24-phase)) / 24
	score = scaleEndgame(p, score, material)
	if p.SideToMove() == chess.Black {
		return -score
	}
	return score
}

// sideTerms returns c's mobility, pawn-structure and king-safety terms.
func sideTerms(p *chess.Position, c chess.Color) (mg, eg int) {
	them := c.Other()
	occ := p.Occupied()
	own := p.ColorPieces(c)
	ourPawns, theirPawns := p.Pieces(c, chess.Pawn), p.Pieces(them, chess.Pawn)
	area := ^own &^ pawnAttacks(them, theirPawns)

	theirKing := p.KingSquare(them)
	zone := chess.KingAttacks(theirKing) | chess.SquareBB(theirKing)
	attackers, weight := 0, 0

	for t := chess.Knight; t <= chess.Queen; t++ {
		bb := p.Pieces(c, t)
		for bb != 0 {
			s := bb.PopFirst()
			var att chess.Bitboard
			switch t {
			case chess.Knight:
				att = chess.KnightAttacks(s)
			case chess.Bishop:
				att = chess.BishopAttacks(s, occ)
			case chess.Rook:
				att = chess.RookAttacks(s, occ)
				f := s.File()
				if fileMask[f]&ourPawns == 0 {
					if fileMask[f]&theirPawns == 0 {
						mg += rookOpenMG
					} else {
						mg += rookSemiOpenMG
					}
				}
			case chess.Queen:
				att = chess.QueenAttacks(s, occ)
			}
			n := (att & area).Count()
			mg += mobilityMG[t] * (n - mobilityCentre[t])
			eg += mobilityEG[t] * (n - mobilityCentre[t])
			if z := att & zone; z != 0 {
				attackers++
				weight += kingAttackWeight[t] * z.Count()
			}
		}
	}
	// An attack with two or more pieces grows with the square of its weight.
	if attackers >= 2 && p.Pieces(c, chess.Queen) != 0 {
		mg += min(weight*weight/2, 400)
	}

	if p.Pieces(c, chess.Bishop).Count() >= 2 {
		mg += bishopPairMG
		eg += bishopPairEG
	}

	// Pawn structure.
	for f := range 8 {
		if n := (ourPawns & fileMask[f]).Count(); n > 1 {
			mg += doubledMG * (n - 1)
			eg += doubledEG * (n - 1)
		}
	}
	bb := ourPawns
	for bb != 0 {
		s := bb.PopFirst()
		if adjacentMask[s.File()]&ourPawns == 0 {
			mg += isolatedMG
			eg += isolatedEG
		}
		if passedMask[c][s]&theirPawns == 0 {
			r := s.Rank()
			if c == chess.Black {
				r = 7 - r
			}
			mg += passedMG[r]
			eg += passedEG[r]
		}
	}

	// Pawn shield in front of a king on its first two ranks.
	k := p.KingSquare(c)
	if r := k.Rank(); (c == chess.White && r <= 1) || (c == chess.Black && r >= 6) {
		mg += shieldNearMG * (shieldMask[c][k][0] & ourPawns).Count()
		mg += shieldFarMG * (shieldMask[c][k][1] & ourPawns).Count()
	}
	return mg, eg
}

// scaleEndgame damps scores that material alone cannot win and drives a
// lone king to the edge when mating material is on the board.
func scaleEndgame(p *chess.Position, score int, material [2]int) int {
	strong := chess.White
	if score < 0 {
		strong = chess.Black
	}
	weak := strong.Other()
	if p.Pieces(strong, chess.Pawn) == 0 && material[strong]-material[weak] < egValue[chess.Rook] {
		score /= 4
	}
	if p.ColorPieces(weak) == p.Pieces(weak, chess.King) && p.Pieces(strong, chess.Pawn) == 0 && material[strong] >= egValue[chess.Rook] {
		wk, sk := p.KingSquare(weak), p.KingSquare(strong)
		dist := abs(wk.File()-sk.File()) + abs(wk.Rank()-sk.Rank())
		bonus := 20*centreDist[wk] + 5*(14-dist)
		if strong == chess.White {
			score += bonus
		} else {
			score -= bonus
		}
	}
	return score
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
