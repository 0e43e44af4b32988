package chess

import "math/bits"

// Bitboard is a set of squares: bit n is set when Square(n) is in the set.
type Bitboard uint64

// Masks of files and ranks.
const (
	FileA Bitboard = 0x0101010101010101
	FileB          = FileA << 1
	FileG          = FileA << 6
	FileH          = FileA << 7
	Rank1 Bitboard = 0xFF
	Rank2          = Rank1 << 8
	Rank3          = Rank1 << 16
	Rank4          = Rank1 << 24
	Rank5          = Rank1 << 32
	Rank6          = Rank1 << 40
	Rank7          = Rank1 << 48
	Rank8          = Rank1 << 56

	lightSquares Bitboard = 0x55AA55AA55AA55AA
	darkSquares           = ^lightSquares
)

// SquareBB returns the set holding only s.
func SquareBB(s Square) Bitboard { return 1 << s }

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return b&(1<<s) != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square in b; b must not be empty.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// PopFirst removes the lowest square from *b and returns it; *b must not be empty.
func (b *Bitboard) PopFirst() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// north and south shift every square one rank up or down; squares pushed off
// the board disappear.
func (b Bitboard) north() Bitboard { return b << 8 }
func (b Bitboard) south() Bitboard { return b >> 8 }
