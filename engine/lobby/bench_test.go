package lobby

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"satranc/engine/clock"
)

// arrivals returns n players joining Quick Play within a minute: spread
// evenly over the time, over every offered control and over ratings
// (normal around 1200, σ 250).
func arrivals(n int, seed uint64) []Entry {
	r := rand.New(rand.NewPCG(seed, seed))
	out := make([]Entry, n)
	for i := range out {
		out[i] = Entry{
			Player: Player{User: int64(i + 1), Rating: int(1200 + 250*r.NormFloat64())},
			Table:  Table{Control: clock.Offered[r.IntN(len(clock.Offered))]},
			Joined: t0.Add(time.Duration(i) * time.Minute / time.Duration(n)),
		}
	}
	return out
}

// simulate runs the arrivals through Queues as Service does (matching on
// each join, and all tables every tick, with bot fills after 6 s) until
// nobody waits, and checks that every player got exactly one game.
func simulate(tb testing.TB, entries []Entry) (humanGames, botGames int) {
	q := NewQueues(DefaultWindow, DefaultBotFillAfter)
	seen := make([]int, len(entries)+1)
	count := func(pairs []Pair) {
		for _, p := range pairs {
			seen[p.A.Player.User]++
			if p.WithBot() {
				botGames++
			} else {
				seen[p.B.Player.User]++
				humanGames++
			}
		}
	}
	next := t0
	for _, e := range entries {
		for !next.After(e.Joined) {
			count(q.Match(next))
			next = next.Add(DefaultTick)
		}
		q.Add(e)
		count(q.MatchTable(e.Table, e.Joined))
	}
	for q.Len() > 0 {
		count(q.Match(next))
		next = next.Add(DefaultTick)
	}
	for u, n := range seen[1:] {
		if n != 1 {
			tb.Fatalf("user %d got %d games, want 1", u+1, n)
		}
	}
	return humanGames, botGames
}

func TestTenThousandPaired(t *testing.T) {
	h, b := simulate(t, arrivals(10_000, 1))
	t.Logf("10,000 players: %d games between players, %d with bots", h, b)
}

// BenchmarkPairing measures the matching itself: 10,000 players joining
// Quick Play within a simulated minute.
func BenchmarkPairing(b *testing.B) {
	entries := arrivals(10_000, 1)
	var bots int
	for b.Loop() {
		_, bots = simulate(b, entries)
	}
	b.ReportMetric(float64(len(entries)*b.N)/b.Elapsed().Seconds(), "players/s")
	b.ReportMetric(float64(bots), "bot-games")
}

// BenchmarkService measures the whole service, goroutine and requests
// included: 10,000 players join from 8 goroutines with simulated time
// advancing a minute, and the games are created by a fake.
func BenchmarkService(b *testing.B) {
	entries := arrivals(10_000, 2)
	players := make(fakePlayers, len(entries))
	for _, e := range entries {
		players[e.Player.User] = e.Player
	}
	for b.Loop() {
		var now atomic.Int64
		now.Store(t0.UnixNano())
		games := &fakeGames{}
		s := New(Config{Games: games, Players: players, Now: func() time.Time { return time.Unix(0, now.Load()) }, Tick: time.Millisecond, Seed: 1})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Run(ctx); close(done) }()
		const workers = 8
		errc := make(chan error, workers)
		for w := range workers {
			go func() {
				for i := w; i < len(entries); i += workers {
					now.Store(max(now.Load(), entries[i].Joined.UnixNano()))
					if err := s.Join(ctx, entries[i].Player.User, entries[i].Table); err != nil {
						errc <- err
						return
					}
				}
				errc <- nil
			}()
		}
		for range workers {
			if err := <-errc; err != nil {
				b.Fatal(err)
			}
		}
		now.Store(t0.Add(time.Hour).UnixNano()) // the last ones get bots
		for {
			var waiting int
			_ = s.do(ctx, func() { waiting = s.q.Len() + len(s.starting) })
			if waiting == 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cancel()
		<-done
		if err := checkOnce(games.all(), len(entries)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(entries)*b.N)/b.Elapsed().Seconds(), "players/s")
}

// checkOnce checks that users 1..n each sit in exactly one game.
func checkOnce(games []fakeGame, n int) error {
	seen := make([]int, n+1)
	for _, g := range games {
		seen[g.white.User]++
		seen[g.black.User]++
	}
	for u := 1; u <= n; u++ {
		if seen[u] != 1 {
			return fmt.Errorf("user %d in %d games, want 1", u, seen[u])
		}
	}
	return nil
}
