package chess

// Zobrist keys (chessprogramming.org/Zobrist_Hashing): a position's key is the
// XOR of one random number per piece on its square, the castling rights, the
// en-passant file and the side to move. Play updates it incrementally.
var (
	zobristPiece    [16][64]uint64
	zobristCastling [16]uint64
	zobristEPFile   [8]uint64
	zobristBlack    uint64
)

func init() {
	rng := xorshift(0x2545F4914F6CDD1D)
	for p := range zobristPiece {
		for s := range zobristPiece[p] {
			zobristPiece[p][s] = rng.next()
		}
	}
	for i := range zobristCastling {
		zobristCastling[i] = rng.next()
	}
	for i := range zobristEPFile {
		zobristEPFile[i] = rng.next()
	}
	zobristBlack = rng.next()
}

// computeHash builds the key from scratch; Play keeps it up to date instead.
func (p *Position) computeHash() uint64 {
	var h uint64
	for occ := p.occupied; occ != 0; {
		s := occ.PopFirst()
		h ^= zobristPiece[p.board[s]][s]
	}
	h ^= zobristCastling[p.castling]
	if p.epSquare != NoSquare {
		h ^= zobristEPFile[p.epSquare.File()]
	}
	if p.side == Black {
		h ^= zobristBlack
	}
	return h
}
