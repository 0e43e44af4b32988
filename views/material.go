package views

import (
	"strconv"

	"satranc/engine/chess"
)

// pieceValues are the usual material values in pawns (the king counts
// for nothing), by chess.PieceType.
var pieceValues = [...]int{chess.Pawn: 1, chess.Knight: 3, chess.Bishop: 3, chess.Rook: 5, chess.Queen: 9}

// setCounts is how many pieces of each type a side starts with.
var setCounts = [...]int{chess.Pawn: 8, chess.Knight: 2, chess.Bishop: 2, chess.Rook: 2, chess.Queen: 1}

// capturable lists the piece types that can be taken, in the order a
// player bar shows them: pawns first, the queen last.
var capturable = [...]chess.PieceType{chess.Pawn, chess.Knight, chess.Bishop, chess.Rook, chess.Queen}

// Material is what one side has taken from the other and how far ahead
// in material it is, as the player bars show it beside the name.
type Material struct {
	// Taken are the opponent's pieces this side has captured, grouped by
	// type, pawns first.
	Taken []TakenPieces
	// Lead is the side's material advantage in pawns (P=1, N=B=3, R=5,
	// Q=9); 0 for the side that is not ahead.
	Lead int
}

// TakenPieces are the captured pieces of one type.
type TakenPieces struct {
	Piece chess.Piece
	Count int
}

// NewMaterial returns the material of both sides in position p. The pieces
// taken are worked out from the position alone, against the standard set:
// a side's pieces beyond the set (promotions) are pawns that were not
// taken. The lead counts the pieces on the board, so it is right from any
// start position.
func NewMaterial(p chess.Position) (white, black Material) {
	var points [2]int
	for _, c := range []chess.Color{chess.White, chess.Black} {
		for _, t := range capturable {
			points[c] += pieceValues[t] * p.Pieces(c, t).Count()
		}
	}
	white = Material{Taken: taken(p, chess.Black), Lead: max(points[chess.White]-points[chess.Black], 0)}
	black = Material{Taken: taken(p, chess.White), Lead: max(points[chess.Black]-points[chess.White], 0)}
	return white, black
}

// taken returns side c's pieces missing from position p, pawns first.
func taken(p chess.Position, c chess.Color) []TakenPieces {
	promoted := 0
	for _, t := range capturable[1:] {
		promoted += max(p.Pieces(c, t).Count()-setCounts[t], 0)
	}
	var out []TakenPieces
	for _, t := range capturable {
		missing := max(setCounts[t]-p.Pieces(c, t).Count(), 0)
		if t == chess.Pawn {
			missing = max(missing-promoted, 0)
		}
		if missing > 0 {
			out = append(out, TakenPieces{Piece: chess.NewPiece(c, t), Count: missing})
		}
	}
	return out
}

// LeadText returns the lead as the bar shows it ("+3"), or "" when the
// side is not ahead.
func (m Material) LeadText() string {
	if m.Lead <= 0 {
		return ""
	}
	return "+" + strconv.Itoa(m.Lead)
}

// Empty reports whether there is nothing to show: nothing taken, no lead.
func (m Material) Empty() bool { return len(m.Taken) == 0 && m.Lead == 0 }

// Code returns the image code of the pieces ("bP").
func (t TakenPieces) Code() string { return SquareView{Piece: t.Piece}.PieceCode() }
