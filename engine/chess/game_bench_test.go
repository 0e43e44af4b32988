package chess

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// benchPlies is the length of the games the Game benchmarks play: a long
// game, so that what a game keeps per ply shows.
const benchPlies = 100

// randomGames returns n games of plies random legal moves from the start
// that the rules do not end before their last move, the same for the same
// seed.
func randomGames(tb testing.TB, n, plies int, seed uint64) [][]Move {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, seed))
	games := make([][]Move, 0, n)
	var buf [MaxMoves]Move
	for len(games) < n {
		g := NewGame(StartPosition())
		for g.Ply() < plies && g.Termination() == NoTermination {
			p := g.Position()
			legal := p.AppendLegalMoves(buf[:0])
			if err := g.Play(legal[r.IntN(len(legal))]); err != nil {
				tb.Fatal(err)
			}
		}
		if g.Ply() == plies && g.Termination() == NoTermination {
			games = append(games, append([]Move(nil), g.Moves()...))
		}
	}
	return games
}

// BenchmarkGamePlay plays 100-ply games one move per op: B/op and
// allocs/op are what a game costs per move, its start included.
func BenchmarkGamePlay(b *testing.B) {
	games := randomGames(b, 64, benchPlies, 1)
	var g *Game
	i := 0
	for b.Loop() {
		ms := games[(i/benchPlies)%len(games)]
		ply := i % benchPlies
		if ply == 0 {
			g = NewGame(StartPosition())
		}
		if err := g.Play(ms[ply]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkGameLive reports the heap that a 100-ply game keeps (B/game):
// a server holds one per active game.
func BenchmarkGameLive(b *testing.B) {
	const n = 1000
	games := randomGames(b, 64, benchPlies, 1)
	var perGame float64
	for b.Loop() {
		live := make([]*Game, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for j := range live {
			g := NewGame(StartPosition())
			for _, m := range games[j%len(games)] {
				if err := g.Play(m); err != nil {
					b.Fatal(err)
				}
			}
			live[j] = g
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perGame = float64(after.HeapAlloc-before.HeapAlloc) / n
		runtime.KeepAlive(live)
	}
	b.ReportMetric(perGame, "B/game")
}

// BenchmarkGameHistory measures what a bot's move costs the record of a
// 100-ply game: the keys of the positions before the current one, which
// are replayed from the start.
func BenchmarkGameHistory(b *testing.B) {
	g := NewGame(StartPosition())
	for _, m := range randomGames(b, 1, benchPlies, 1)[0] {
		if err := g.Play(m); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		_ = g.History()
	}
}

// BenchmarkGamePositionAt measures an earlier position of a 100-ply game,
// replayed from the start: the middle one.
func BenchmarkGamePositionAt(b *testing.B) {
	g := NewGame(StartPosition())
	for _, m := range randomGames(b, 1, benchPlies, 1)[0] {
		if err := g.Play(m); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		_ = g.PositionAt(benchPlies / 2)
	}
}
