package bot

import "satranc/engine/chess"

// Bound says how a stored score relates to the true value.
type bound uint8

const (
	boundNone  bound = iota
	boundUpper       // the score is at most this (fail low)
	boundLower       // the score is at least this (fail high)
	boundExact
)

// ttEntry is one transposition-table slot, 16 bytes.
type ttEntry struct {
	key   uint64
	move  chess.Move
	score int16
	depth int8
	bound bound
}

// table is a transposition table (https://www.chessprogramming.org/Transposition_Table):
// one entry per slot, always replaced unless the slot holds a deeper result
// for the same position. It is owned by one search at a time.
type table struct {
	entries []ttEntry
	mask    uint64
}

// newTable returns a table of about sizeMB megabytes (at least 1024 entries),
// rounded down to a power of two.
func newTable(sizeMB int) *table {
	n := uint64(1024)
	for n*2*16 <= uint64(sizeMB)<<20 {
		n *= 2
	}
	return &table{entries: make([]ttEntry, n), mask: n - 1}
}

func (t *table) clear() { clear(t.entries) }

func (t *table) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.key == key && e.bound != boundNone
}

func (t *table) store(key uint64, m chess.Move, score, depth int, b bound) {
	e := &t.entries[key&t.mask]
	if e.key == key && int(e.depth) > depth && b != boundExact {
		return
	}
	if m == chess.NullMove && e.key == key {
		m = e.move // keep the best move found earlier
	}
	*e = ttEntry{key: key, move: m, score: int16(score), depth: int8(depth), bound: b}
}

// Mate scores are stored relative to the node, not the root, so that they
// stay right when the same position is reached at another ply.
func scoreToTT(score, ply int) int {
	switch {
	case score >= mateBound:
		return score + ply
	case score <= -mateBound:
		return score - ply
	}
	return score
}

func scoreFromTT(score, ply int) int {
	switch {
	case score >= mateBound:
		return score - ply
	case score <= -mateBound:
		return score + ply
	}
	return score
}
