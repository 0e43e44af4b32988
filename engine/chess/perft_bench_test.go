package chess

import "testing"

// Kiwipete, the standard stress position for move generators
// (chessprogramming.org/Perft_Results, position 2).
const kiwipeteFEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

func benchmarkPerft(b *testing.B, fen string, depth int) {
	p, err := ParseFEN(fen)
	if err != nil {
		b.Fatal(err)
	}
	var nodes uint64
	for b.Loop() {
		nodes += p.Perft(depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}

func BenchmarkPerftStart6(b *testing.B)    { benchmarkPerft(b, StartFEN, 6) }
func BenchmarkPerftKiwipete5(b *testing.B) { benchmarkPerft(b, kiwipeteFEN, 5) }

// BenchmarkLegalMoves measures generation alone; it must not allocate.
func BenchmarkLegalMoves(b *testing.B) {
	p, err := ParseFEN(kiwipeteFEN)
	if err != nil {
		b.Fatal(err)
	}
	var buf [MaxMoves]Move
	n := 0
	for b.Loop() {
		n += len(p.AppendLegalMoves(buf[:0]))
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mmoves/s")
}
