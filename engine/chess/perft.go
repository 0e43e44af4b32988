package chess

// Perft counts the leaf nodes of the legal move tree to the given depth
// (chessprogramming.org/Perft). It counts the last ply in bulk: at depth 1
// it returns the number of legal moves without playing them.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perft(*p, depth)
}

// perft takes the position by value: a pointer into the caller's frame would
// make escape analysis move every child position of the recursion to the heap.
func perft(p Position, depth int) uint64 {
	var buf [MaxMoves]Move
	moves := p.AppendLegalMoves(buf[:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var nodes uint64
	for _, m := range moves {
		nodes += perft(p.Play(m), depth-1)
	}
	return nodes
}

// DivideEntry is the perft count below one root move.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns the perft count below each legal move, in generation order,
// for comparing with another engine's `go perft` output move by move.
func (p *Position) Divide(depth int) []DivideEntry {
	moves := p.LegalMoves()
	out := make([]DivideEntry, 0, len(moves))
	for _, m := range moves {
		child := p.Play(m)
		out = append(out, DivideEntry{Move: m, Nodes: child.Perft(depth - 1)})
	}
	return out
}
