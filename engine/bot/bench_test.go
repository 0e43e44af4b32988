package bot

import (
	"context"
	"testing"

	"satranc/engine/chess"
)

// benchFENs is the fixed position set of the nodes/s benchmark: the start,
// open and closed middlegames, a tactical position and endgames.
var benchFENs = []string{
	chess.StartFEN,
	"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 8",
	"2r3k1/pp3ppp/4p3/3p4/3P4/2P1P3/P4PPP/2R3K1 w - - 0 25",
	"8/5pk1/6p1/8/3K4/8/5PPP/8 w - - 0 40",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
}

// BenchmarkSearch measures the nodes per second of Max searching each
// position of the set to depth 9.
func BenchmarkSearch(b *testing.B) {
	var positions []chess.Position
	for _, fen := range benchFENs {
		positions = append(positions, mustFEN(b, fen))
	}
	var nodes uint64
	for b.Loop() {
		for _, p := range positions {
			res := NewEngine(16).Search(context.Background(), p, nil, Limits{Depth: 9}, nil)
			nodes += res.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
