package game

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
)

// benchPlies is the length of the games the benchmarks play: a long game,
// so that what a game keeps per ply shows.
const benchPlies = 100

// randomGames returns n games of plies random legal moves from the start
// that the rules do not end before their last move, the same for the same
// seed.
func randomGames(tb testing.TB, n, plies int, seed uint64) [][]chess.Move {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, seed))
	games := make([][]chess.Move, 0, n)
	var buf [chess.MaxMoves]chess.Move
	for len(games) < n {
		g := chess.NewGame(chess.StartPosition())
		for g.Ply() < plies && g.Termination() == chess.NoTermination {
			p := g.Position()
			legal := p.AppendLegalMoves(buf[:0])
			if err := g.Play(legal[r.IntN(len(legal))]); err != nil {
				tb.Fatal(err)
			}
		}
		if g.Ply() == plies && g.Termination() == chess.NoTermination {
			games = append(games, append([]chess.Move(nil), g.Moves()...))
		}
	}
	return games
}

// benchGame plays ms in a new 3+2 game between two people, a second a
// move, calling each after every move.
func benchGame(tb testing.TB, ms []chess.Move, each func(g *Game)) *Game {
	g := New(Options{White: Human(1), Black: Human(2), Control: clock.MustParse("3+2")}, t0)
	for i, m := range ms {
		p := g.Position()
		if _, err := g.Move(p.SideToMove(), m, i, at(time.Duration(i+1)*time.Second)); err != nil {
			tb.Fatal(err)
		}
		if each != nil {
			each(g)
		}
	}
	return g
}

// BenchmarkMove plays 100-ply games one move per op: B/op and allocs/op
// are what a game costs per move (its events included), its start too.
func BenchmarkMove(b *testing.B) {
	games := randomGames(b, 64, benchPlies, 1)
	var g *Game
	i := 0
	for b.Loop() {
		ms := games[(i/benchPlies)%len(games)]
		ply := i % benchPlies
		if ply == 0 {
			g = New(Options{White: Human(1), Black: Human(2), Control: clock.MustParse("3+2")}, t0)
		}
		p := g.Position()
		if _, err := g.Move(p.SideToMove(), ms[ply], ply, at(time.Duration(ply+1)*time.Second)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkLive reports the heap that a 100-ply game keeps (B/game): a
// server holds one per active game.
func BenchmarkLive(b *testing.B) {
	const n = 1000
	games := randomGames(b, 64, benchPlies, 1)
	var perGame float64
	for b.Loop() {
		live := make([]*Game, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for j := range live {
			live[j] = benchGame(b, games[j%len(games)], nil)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perGame = float64(after.HeapAlloc-before.HeapAlloc) / n
		runtime.KeepAlive(live)
	}
	b.ReportMetric(perGame, "B/game")
}
