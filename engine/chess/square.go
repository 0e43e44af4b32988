package chess

import "fmt"

// Square is one of the 64 squares, numbered rank by rank from a1 = 0:
//
//	8 | 56 57 58 59 60 61 62 63
//	7 | 48 49 50 51 52 53 54 55
//	6 | 40 41 42 43 44 45 46 47
//	5 | 32 33 34 35 36 37 38 39
//	4 | 24 25 26 27 28 29 30 31
//	3 | 16 17 18 19 20 21 22 23
//	2 |  8  9 10 11 12 13 14 15
//	1 |  0  1  2  3  4  5  6  7
//	    a  b  c  d  e  f  g  h
type Square uint8

// NoSquare marks the absence of a square, for example no en-passant target.
const NoSquare Square = 64

// The squares by name.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 8*iota + 0, 8*iota + 1, 8*iota + 2, 8*iota + 3, 8*iota + 4, 8*iota + 5, 8*iota + 6, 8*iota + 7
	A2, B2, C2, D2, E2, F2, G2, H2
	A3, B3, C3, D3, E3, F3, G3, H3
	A4, B4, C4, D4, E4, F4, G4, H4
	A5, B5, C5, D5, E5, F5, G5, H5
	A6, B6, C6, D6, E6, F6, G6, H6
	A7, B7, C7, D7, E7, F7, G7, H7
	A8, B8, C8, D8, E8, F8, G8, H8
)

// NewSquare returns the square on file (0 = a) and rank (0 = first rank).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns the file of s, 0 for the a-file to 7 for the h-file.
func (s Square) File() int { return int(s) & 7 }

// Rank returns the rank of s, 0 for the first rank to 7 for the eighth.
func (s Square) Rank() int { return int(s) >> 3 }

// IsLight reports whether s is a light square (h1 is light, a1 is dark).
func (s Square) IsLight() bool { return (s.File()+s.Rank())%2 == 1 }

// squareNames are the names of the squares a1 to h8, two letters each:
// String slices them, so that naming a square allocates nothing (a board
// drawn for a game's page names all 64).
const squareNames = "a1b1c1d1e1f1g1h1a2b2c2d2e2f2g2h2a3b3c3d3e3f3g3h3a4b4c4d4e4f4g4h4a5b5c5d5e5f5g5h5a6b6c6d6e6f6g6h6a7b7c7d7e7f7g7h7a8b8c8d8e8f8g8h8"

// String returns the square's name, such as "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return squareNames[2*s : 2*s+2]
}

// ParseSquare reads a square name such as "e4".
func ParseSquare(name string) (Square, error) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
		return NoSquare, fmt.Errorf("chess: %q is not a square", name)
	}
	return NewSquare(int(name[0]-'a'), int(name[1]-'1')), nil
}
