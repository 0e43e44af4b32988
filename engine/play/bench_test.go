package play

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"testing"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/live"
)

// benchPlies is the length of the games the benchmarks play: a long game,
// so that what a game keeps per ply shows.
const benchPlies = 100

// benchStore is a memStore that keeps no moves, so that the benchmarks
// measure the service rather than the test store's copies.
type benchStore struct{ *memStore }

func (s benchStore) AppendMove(ctx context.Context, id int64, _ StoredMove, end *Ending) error {
	if end != nil {
		return s.FinishGame(ctx, id, *end)
	}
	return nil
}

// randomGames returns n games of plies random legal moves from the start,
// in UCI, that the rules do not end before their last move, the same for
// the same seed.
func randomGames(tb testing.TB, n, plies int, seed uint64) [][]string {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, seed))
	games := make([][]string, 0, n)
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
			uci := make([]string, plies)
			for i, m := range g.Moves() {
				uci[i] = m.String()
			}
			games = append(games, uci)
		}
	}
	return games
}

// benchGame is one private game with two streams that read every event,
// as the two players' pages do.
type benchGame struct {
	id, white, black int64
	subs             [2]*live.Subscription[int64, *Event]
}

func newBenchGame(tb testing.TB, s *Service) benchGame {
	tb.Helper()
	ctx := context.Background()
	id, token, err := s.CreatePrivateGame(ctx, 1, clock.MustParse("5+0"))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := s.JoinPrivateGame(ctx, 2, token); err != nil {
		tb.Fatal(err)
	}
	snap, err := s.Shared(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	bg := benchGame{id: id, white: 2, black: 1}
	if snap.White.User == 1 {
		bg.white, bg.black = 1, 2
	}
	for i := range bg.subs {
		bg.subs[i] = s.Subscribe(id)
	}
	return bg
}

// move plays the ply-th move, uci, and reads the streams' events.
func (bg benchGame) move(tb testing.TB, s *Service, ply int, uci string) {
	user := bg.white
	if ply%2 == 1 {
		user = bg.black
	}
	if err := s.Move(context.Background(), bg.id, user, uci, chess.English, ply); err != nil {
		tb.Fatal(err)
	}
	for _, sub := range bg.subs {
		for len(sub.C()) > 0 {
			<-sub.C()
		}
	}
}

func benchService() *Service {
	return New(Config{
		Store:  benchStore{newMemStore()},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
}

// BenchmarkServiceMove plays 100-ply games through the service, one move
// per op, each read by two streams: B/op and allocs/op are what a move
// costs the server from the parsed request to the published events (the
// game's creation included).
func BenchmarkServiceMove(b *testing.B) {
	s := benchService()
	defer s.Close()
	games := randomGames(b, 64, benchPlies, 1)
	var bg benchGame
	i := 0
	for b.Loop() {
		ms := games[(i/benchPlies)%len(games)]
		ply := i % benchPlies
		if ply == 0 {
			bg = newBenchGame(b, s)
		}
		bg.move(b, s, ply, ms[ply])
		i++
	}
}

// BenchmarkServiceLive reports the heap that an active game of 100 plies
// with two streams keeps in the service (B/game): its table, game, last
// snapshot and subscriptions.
func BenchmarkServiceLive(b *testing.B) {
	const n = 500
	games := randomGames(b, 64, benchPlies, 1)
	var perGame float64
	for b.Loop() {
		s := benchService()
		live := make([]benchGame, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for j := range live {
			live[j] = newBenchGame(b, s)
			for ply, uci := range games[j%len(games)] {
				live[j].move(b, s, ply, uci)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perGame = float64(after.HeapAlloc-before.HeapAlloc) / n
		runtime.KeepAlive(live)
		s.Close()
	}
	b.ReportMetric(perGame, "B/game")
}
