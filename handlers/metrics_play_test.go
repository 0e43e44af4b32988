package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/bot"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/store"
)

// poolBot adapts a pooled bot.Player to play.BotPlayer, as the serve
// command does.
type poolBot struct{ p bot.Player }

func (b poolBot) Move(ctx context.Context, pos chess.Position, history []uint64, remaining, increment time.Duration) (chess.Move, error) {
	return b.p.Move(ctx, pos, history, bot.Clock{Remaining: remaining, Increment: increment})
}

// TestMetricsOfPlay: on the real service and store, wired as the serve
// command wires them, a move written to a stream is timed, a computer
// player's search is counted, and so is a database error.
func TestMetricsOfPlay(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "satranc.db"))
	if err != nil {
		t.Fatal(err)
	}
	closeStore := sync.OnceValue(st.Close)
	t.Cleanup(func() { closeStore() })
	for _, u := range []account.User{ayse, bora} {
		if got, err := st.CreateUser(ctx, account.NewUser{Name: u.Name, PasswordHash: "x", Language: "en"}); err != nil || got.ID != u.ID {
			t.Fatalf("create %s: %+v, %v", u.Name, got, err)
		}
	}
	pool := bot.NewPool(1)
	games := play.New(play.Config{Store: st, Logger: slog.New(slog.DiscardHandler), Bots: func(game.Level) play.BotPlayer {
		return poolBot{pool.Player(bot.New(bot.Easy, 1))}
	}})
	closeGames := sync.OnceFunc(games.Close)
	t.Cleanup(closeGames)
	metrics := NewMetrics(MetricsConfig{LiveGames: games.LiveGames, BotSearches: pool.Stats, StoreErrors: st.Errors})
	accounts := &fakeAccounts{users: []account.User{ayse, bora}}
	srv := serveRoutes(New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts,
		Games: games, Chat: games, Voice: games, Metrics: metrics}), nil)
	t.Cleanup(srv.Close)
	// waitMetric waits until /metrics has the line want.
	waitMetric := func(want string) {
		t.Helper()
		var body string
		for deadline := time.Now().Add(sseTimeout); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			rec := httptest.NewRecorder()
			metrics.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
			if body = rec.Body.String(); strings.Contains(body, "\n"+want+"\n") {
				return
			}
		}
		t.Fatalf("/metrics lacks %q:\n%s", want, body)
	}
	waitMetric("satranc_move_event_latency_seconds_count 0")
	waitMetric("satranc_bot_searches 0")
	waitMetric("satranc_bot_searches_total 0")
	waitMetric("satranc_bot_search_seconds_total 0")
	waitMetric("satranc_bot_search_wait_seconds_total 0")
	waitMetric("satranc_store_errors_total 0")

	// A move, its event written to a player's stream.
	id, token, err := games.CreatePrivateGame(ctx, ayse.ID, clock.MustParse("5+0"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := games.JoinPrivateGame(ctx, bora.ID, token); err != nil {
		t.Fatal(err)
	}
	snap, err := games.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	white := ayse
	if side, _ := snap.SideOf(ayse.ID); side != chess.White {
		white = bora
	}
	s := openGameStream(t, srv, id, ayse)
	defer s.cancel()
	s.next(t)
	if err := games.Move(ctx, id, white.ID, "e2e4", chess.English, 0); err != nil {
		t.Fatal(err)
	}
	s.next(t)
	waitMetric("satranc_move_event_latency_seconds_count 1")
	s.close(t)

	// A practice game whose computer player has White: it searches once,
	// then waits for ayse's move.
	if _, err := games.CreatePracticeGame(ctx, ayse.ID, game.Easy, clock.MustParse("5+0"), play.PlayBlack); err != nil {
		t.Fatal(err)
	}
	waitMetric("satranc_bot_searches_total 1")
	waitMetric("satranc_bot_searches 0")

	// A statement on the closed database.
	closeGames()
	if err := closeStore(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.UserByName(ctx, ayse.Name); err == nil {
		t.Fatal("UserByName on the closed store succeeded")
	}
	waitMetric("satranc_store_errors_total 1")
}
