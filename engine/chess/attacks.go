package chess

// Attack tables: leapers are looked up directly, sliders through "fancy"
// magic bitboards (chessprogramming.org/Magic_Bitboards): the blockers on a
// slider's rays are multiplied by a magic number so that their top bits form
// a unique index into a table of attack sets. The factors in magics.go were
// found by the seeded search in magics_test.go (go test -run TestFindMagics
// -genmagics); start-up only fills the tables.

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard

	// between[a][b] holds the squares strictly between a and b when they share
	// a rank, file or diagonal, else nothing. line[a][b] is the whole line
	// through both (edge to edge), or nothing.
	between [64][64]Bitboard
	line    [64][64]Bitboard

	rookMagics   [64]magic
	bishopMagics [64]magic
	rookTable    [0x19000]Bitboard // 102,400 entries: the sum of 2^bits over the squares
	bishopTable  [0x1480]Bitboard  // 5,248 entries
)

// magic maps the relevant blockers of one square to its slot in a table.
type magic struct {
	mask    Bitboard
	factor  uint64
	shift   uint8
	attacks []Bitboard
}

func (m *magic) index(occupied Bitboard) uint64 {
	return (uint64(occupied&m.mask) * m.factor) >> m.shift
}

// RookAttacks returns the squares a rook on s attacks given the occupied squares.
func RookAttacks(s Square, occupied Bitboard) Bitboard {
	m := &rookMagics[s]
	return m.attacks[m.index(occupied)]
}

// BishopAttacks returns the squares a bishop on s attacks given the occupied squares.
func BishopAttacks(s Square, occupied Bitboard) Bitboard {
	m := &bishopMagics[s]
	return m.attacks[m.index(occupied)]
}

// QueenAttacks returns the squares a queen on s attacks given the occupied squares.
func QueenAttacks(s Square, occupied Bitboard) Bitboard {
	return RookAttacks(s, occupied) | BishopAttacks(s, occupied)
}

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return knightAttacks[s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return kingAttacks[s] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnAttacks[c][s] }

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func init() {
	for s := A1; s <= H8; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			knightAttacks[s] |= offsetBB(f+d[0], r+d[1])
		}
		for _, d := range [8][2]int{{1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}, {0, 1}} {
			kingAttacks[s] |= offsetBB(f+d[0], r+d[1])
		}
		pawnAttacks[White][s] = offsetBB(f-1, r+1) | offsetBB(f+1, r+1)
		pawnAttacks[Black][s] = offsetBB(f-1, r-1) | offsetBB(f+1, r-1)
	}
	offset := 0
	for s := A1; s <= H8; s++ {
		offset += initMagic(&rookMagics[s], s, rookDirs, rookMagicFactors[s], rookTable[offset:])
	}
	offset = 0
	for s := A1; s <= H8; s++ {
		offset += initMagic(&bishopMagics[s], s, bishopDirs, bishopMagicFactors[s], bishopTable[offset:])
	}
	for a := A1; a <= H8; a++ {
		for _, dirs := range [2][4][2]int{rookDirs, bishopDirs} {
			for _, d := range dirs {
				ray := Bitboard(0)
				for f, r := a.File()+d[0], a.Rank()+d[1]; onBoard(f, r); f, r = f+d[0], r+d[1] {
					b := NewSquare(f, r)
					between[a][b] = ray
					ray |= SquareBB(b)
				}
			}
		}
	}
	for a := A1; a <= H8; a++ {
		for b := A1; b <= H8; b++ {
			if a == b {
				continue
			}
			if RookAttacks(a, 0).Has(b) {
				line[a][b] = (RookAttacks(a, 0) & RookAttacks(b, 0)) | SquareBB(a) | SquareBB(b)
			} else if BishopAttacks(a, 0).Has(b) {
				line[a][b] = (BishopAttacks(a, 0) & BishopAttacks(b, 0)) | SquareBB(a) | SquareBB(b)
			}
		}
	}
}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func offsetBB(f, r int) Bitboard {
	if !onBoard(f, r) {
		return 0
	}
	return SquareBB(NewSquare(f, r))
}

// slidingAttacks walks the rays slowly; it is used only to fill the tables.
func slidingAttacks(s Square, dirs [4][2]int, occupied Bitboard) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		for f, r := s.File()+d[0], s.Rank()+d[1]; onBoard(f, r); f, r = f+d[0], r+d[1] {
			b := SquareBB(NewSquare(f, r))
			att |= b
			if occupied&b != 0 {
				break
			}
		}
	}
	return att
}

// initMagic fills the table entries of s from its magic factor and returns
// how many it used. A collision means a wrong factor in magics.go, which a
// test would have caught; it panics rather than generate wrong moves.
func initMagic(m *magic, s Square, dirs [4][2]int, factor uint64, table []Bitboard) int {
	m.mask = relevantBlockers(s, dirs)
	m.factor = factor
	n := m.mask.Count()
	m.shift = uint8(64 - n)
	size := 1 << n
	m.attacks = table[:size:size]
	filled := make([]bool, size)
	// Carry-Rippler: enumerate every subset of the mask.
	var sub Bitboard
	for range size {
		idx := m.index(sub)
		att := slidingAttacks(s, dirs, sub)
		if filled[idx] && m.attacks[idx] != att {
			panic("chess: bad magic factor for " + s.String())
		}
		filled[idx] = true
		m.attacks[idx] = att
		sub = (sub - m.mask) & m.mask
	}
	return size
}

// relevantBlockers returns the squares whose occupancy changes what a slider
// on s attacks: its rays without the board's edge (the edges matter only
// when the slider stands on them).
func relevantBlockers(s Square, dirs [4][2]int) Bitboard {
	edges := ((Rank1 | Rank8) &^ rankMask(s)) | ((FileA | FileH) &^ fileMask(s))
	return slidingAttacks(s, dirs, 0) &^ edges
}

func rankMask(s Square) Bitboard { return Rank1 << (8 * s.Rank()) }
func fileMask(s Square) Bitboard { return FileA << s.File() }

// xorshift is a tiny deterministic generator for the magic search.
type xorshift uint64

func (x *xorshift) next() uint64 {
	*x ^= *x >> 12
	*x ^= *x << 25
	*x ^= *x >> 27
	return uint64(*x) * 2685821657736338717
}
