package lobby

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chips"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// runLobby starts a lobby on fakes inside a synctest bubble; the returned
// stop ends it and waits.
func runLobby(t *testing.T, players fakePlayers, games *fakeGames) (*Service, func()) {
	t.Helper()
	s := New(Config{Games: games, Players: players, Balances: players, Seed: 1})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	return s, func() { cancel(); <-done }
}

func TestTwoPlayersPaired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		games := &fakeGames{}
		s, stop := runLobby(t, fakePlayers{}, games)
		defer stop()
		ctx := context.Background()
		sub1, sub2 := s.Subscribe(1), s.Subscribe(2)
		defer sub1.Close()
		defer sub2.Close()
		if err := s.Join(ctx, 1, blitz); err != nil {
			t.Fatal(err)
		}
		if st, _ := s.Status(ctx, 1); st.State != Waiting || st.Table != blitz {
			t.Fatalf("Status(1) = %+v, want waiting at blitz", st)
		}
		time.Sleep(2 * time.Second)
		if err := s.Join(ctx, 2, blitz); err != nil {
			t.Fatal(err)
		}
		e1, e2 := <-sub1.C(), <-sub2.C()
		if e1.Status.State != Paired || e1.Status.Game != 1 || e2.Status.Game != 1 {
			t.Fatalf("events %+v, %+v; want both paired in game 1", e1, e2)
		}
		g := games.all()
		if len(g) != 1 || g[0].kind != play.Quick || g[0].stake != 0 || g[0].control != blitz.Control ||
			g[0].white.User+g[0].black.User != 3 {
			t.Fatalf("games = %+v, want one quick game of users 1 and 2", g)
		}
		if st, _ := s.Status(ctx, 2); st.State != Paired || st.Game != 1 {
			t.Errorf("Status(2) = %+v, want paired in game 1", st)
		}
	})
}

func TestBotFillsSeat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		games := &fakeGames{}
		s, stop := runLobby(t, fakePlayers{1: {Rating: 1650, Balance: 5_000}}, games)
		defer stop()
		ctx := context.Background()
		sub := s.Subscribe(1)
		defer sub.Close()
		kahvehane := Table{Lounge: "kahvehane", Control: blitz.Control}
		if err := s.Join(ctx, 1, kahvehane); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if n := len(games.all()); n != 0 {
			t.Fatalf("%d games after 5 s, want 0", n)
		}
		start := time.Now()
		e := <-sub.C()
		if waited := time.Since(start) + 5*time.Second; waited < DefaultBotFillAfter || waited > DefaultBotFillAfter+time.Second {
			t.Errorf("bot came after %v, want about %v", waited, DefaultBotFillAfter)
		}
		g := games.all()
		if e.Status.State != Paired || len(g) != 1 || g[0].kind != play.Lounge || g[0].stake != 500 {
			t.Fatalf("event %+v, games %+v; want a lounge game at 500", e, g)
		}
		bot := g[0].white
		if bot.IsHuman() {
			bot = g[0].black
		}
		if bot.Bot != game.Hard {
			t.Errorf("bot %v, want hard (1700 is nearest 1650)", bot)
		}
	})
}

func TestCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		games := &fakeGames{}
		s, stop := runLobby(t, fakePlayers{}, games)
		defer stop()
		ctx := context.Background()
		if err := s.Join(ctx, 1, blitz); err != nil {
			t.Fatal(err)
		}
		if err := s.Cancel(ctx, 1); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Minute)
		if st, _ := s.Status(ctx, 1); st.State != Idle || len(games.all()) != 0 {
			t.Errorf("after Cancel: Status = %+v, %d games; want idle, none", st, len(games.all()))
		}
	})
}

func TestJoinRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		players := fakePlayers{1: {Balance: 4_999}, 2: {Balance: 1e6}, 3: {Balance: 1e6, Restricted: true}}
		s, stop := runLobby(t, players, &fakeGames{})
		defer stop()
		ctx := context.Background()
		tests := []struct {
			user int64
			t    Table
			want error
		}{
			{1, Table{Lounge: "kahvehane", Control: blitz.Control}, chips.ErrInsufficientBalance},
			{2, Table{Lounge: "has-oda", Control: blitz.Control}, chips.ErrReserved},
			{3, blitz, ErrRestricted},
			{2, Table{Lounge: "nowhere", Control: blitz.Control}, ErrUnknownTable},
			{2, Table{}, ErrUnknownTable},
		}
		for _, tc := range tests {
			if err := s.Join(ctx, tc.user, tc.t); !errors.Is(err, tc.want) {
				t.Errorf("Join(%d, %+v) = %v, want %v", tc.user, tc.t, err, tc.want)
			}
		}
	})
}

func TestCreateFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, stop := runLobby(t, fakePlayers{}, &fakeGames{fail: true})
		defer stop()
		ctx := context.Background()
		sub := s.Subscribe(1)
		defer sub.Close()
		_ = s.Join(ctx, 1, blitz)
		_ = s.Join(ctx, 2, blitz)
		if e := <-sub.C(); e.Status.State != Failed {
			t.Errorf("event %+v, want failed", e)
		}
	})
}

func TestClosed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, stop := runLobby(t, fakePlayers{}, &fakeGames{})
		stop()
		if err := s.Join(context.Background(), 1, blitz); !errors.Is(err, ErrClosed) {
			t.Errorf("Join after Run = %v, want ErrClosed", err)
		}
	})
}

// TestConcurrentJoins: players joining and cancelling from many goroutines
// each end in exactly one game, or in none after cancelling.
func TestConcurrentJoins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		games := &fakeGames{}
		s, stop := runLobby(t, fakePlayers{}, games)
		defer stop()
		const n = 200
		done := make(chan struct{})
		for w := range 4 {
			go func() {
				defer func() { done <- struct{}{} }()
				for u := w + 1; u <= n; u += 4 {
					tb := Table{Control: clock.Offered[u%3]}
					if err := s.Join(context.Background(), int64(u), tb); err != nil {
						t.Error(err)
					}
					if u%10 == 0 {
						// Cancelling may come too late: then the game stands.
						_ = s.Cancel(context.Background(), int64(u))
					}
				}
			}()
		}
		for range 4 {
			<-done
		}
		time.Sleep(10 * time.Second) // the last ones get bots
		synctest.Wait()
		seen := map[int64]int{}
		for _, g := range games.all() {
			seen[g.white.User]++
			seen[g.black.User]++
		}
		for u := int64(1); u <= n; u++ {
			st, _ := s.Status(context.Background(), u)
			switch {
			case seen[u] > 1:
				t.Errorf("user %d in %d games", u, seen[u])
			case seen[u] == 0 && (u%10 != 0 || st.State != Idle):
				t.Errorf("user %d in no game, status %+v", u, st)
			case seen[u] == 1 && st.State != Paired:
				t.Errorf("user %d in a game, status %+v", u, st)
			}
		}
	})
}
