package handlers

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/cosmetics"
	"satranc/engine/game"
	"satranc/engine/lobby"
	"satranc/engine/play"
	"satranc/engine/tourney"
	"satranc/store"
)

// stackEnv is the whole site as the serve command wires it, on a real
// SQLite store in a temporary directory: accounts (cheap hashing), games
// (without bots), the lobby, the leaderboard and the profiles, the looks,
// the tournaments and the administration (the first player signed up is
// the administrator, as on a new site). The attack tests and the fuzzers
// send it requests and read the store to see what changed.
type stackEnv struct {
	*accountEnv
	accounts *account.Service
	games    *play.Service
	dbPath   string
}

// looseLimit is a limit no test meets by accident.
var looseLimit = RateLimit{Every: time.Millisecond, Burst: 1000}

// newStackEnv returns a stackEnv whose players have moveLimit (the zero
// value: DefaultMoveLimit). Log-in and sign-up, and the requests that
// create games or join queues, are limited only loosely.
func newStackEnv(tb testing.TB, moveLimit RateLimit) *stackEnv {
	tb.Helper()
	return newStackEnvLimits(tb, moveLimit, looseLimit)
}

// newStackEnvLimits is newStackEnv with createLimit on the requests that
// create games or join queues.
func newStackEnvLimits(tb testing.TB, moveLimit, createLimit RateLimit) *stackEnv {
	tb.Helper()
	discard := slog.New(slog.DiscardHandler)
	dbPath := filepath.Join(tb.TempDir(), "stack.db")
	st, err := store.Open(context.Background(), dbPath)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	accounts, err := account.NewService(st, account.NewHasher(account.TestParams), time.Hour)
	if err != nil {
		tb.Fatal(err)
	}
	games := play.New(play.Config{Store: st, Logger: discard})
	tb.Cleanup(games.Close)
	lb := lobby.New(lobby.Config{Games: games, Players: st, Balances: st, BotFillAfter: -1, Logger: discard})
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { lb.Run(ctx); close(done) }()
	tb.Cleanup(func() { stop(); <-done })
	h := New(Config{
		Logger: discard, DB: st, Accounts: accounts,
		AuthLimit: looseLimit, MoveLimit: moveLimit, CreateLimit: createLimit,
		Games: games, Chat: games, Voice: games, Users: st, Lobby: lb, Bonus: st, Leaderboard: st, Profiles: st,
		Cosmetics: cosmetics.NewService(st), Tournaments: tourney.New(tourney.Config{Store: st, Logger: discard}),
		Admin: st, Reports: st, Voided: games, Settlements: st, InPlay: st,
	})
	return &stackEnv{accountEnv: &accountEnv{h: h.Routes(), store: st}, accounts: accounts, games: games, dbPath: dbPath}
}

// player is a signed-up user and the session cookie of their browser.
type player struct {
	account.User
	cookie *http.Cookie
}

// cookies is the player's cookie jar for a request.
func (p player) cookies() []*http.Cookie { return []*http.Cookie{p.cookie} }

// player signs name up.
func (e *stackEnv) player(tb testing.TB, name string) player {
	tb.Helper()
	u, s, err := e.accounts.SignUp(context.Background(), name, "correct horse", "en")
	if err != nil {
		tb.Fatalf("sign up %s: %v", name, err)
	}
	return player{User: u, cookie: &http.Cookie{Name: sessionCookie, Value: s.Token}}
}

// privateGame has a open a private 15+10 game and b join it; it returns
// the game and its White and Black.
func (e *stackEnv) privateGame(tb testing.TB, a, b player) (id int64, white, black player) {
	tb.Helper()
	ctx := context.Background()
	id, token, err := e.games.CreatePrivateGame(ctx, a.ID, clock.Control{Initial: 15 * time.Minute, Increment: 10 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := e.games.JoinPrivateGame(ctx, b.ID, token); err != nil {
		tb.Fatal(err)
	}
	snap := e.snapshot(tb, id)
	if side, _ := snap.SideOf(a.ID); side == chess.White {
		return id, a, b
	}
	return id, b, a
}

func (e *stackEnv) snapshot(tb testing.TB, id int64) play.Snapshot {
	tb.Helper()
	snap, err := e.games.Game(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return snap
}

// gameState is what a request may change of a game, as the service and
// the database have it.
type gameState struct {
	Ply, StoredMoves, Chat int
	Status                 game.Status
}

func (e *stackEnv) state(tb testing.TB, id int64) gameState {
	tb.Helper()
	ctx := context.Background()
	rec, err := e.store.Game(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	chat, err := e.store.ChatMessages(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	return gameState{Ply: e.snapshot(tb, id).Ply, StoredMoves: len(rec.Moves), Chat: len(chat), Status: rec.Status}
}

// post sends body, as is, as a form to target, as p (or a guest when p's
// cookie is nil) and through htmx when htmx is set.
func (e *stackEnv) post(target, body string, p player, htmx bool) *http.Response {
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if p.cookie != nil {
		req.AddCookie(p.cookie)
	}
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec.Result()
}

// count returns the number of rows of table, as a second reader sees it.
func (e *stackEnv) count(tb testing.TB, table string) (n int) {
	tb.Helper()
	db, err := sql.Open("sqlite3", "file:"+e.dbPath+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// checkDatabase checks the database file as a second reader would: SQLite's
// integrity check passes and every table the site keeps is still there,
// with the rows counted into want (by table) when given.
func (e *stackEnv) checkDatabase(tb testing.TB, want map[string]int) {
	tb.Helper()
	db, err := sql.Open("sqlite3", "file:"+e.dbPath+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		tb.Errorf("integrity_check = %q, %v", check, err)
	}
	for _, table := range []string{"users", "sessions", "games", "moves", "chat_messages", "ledger"} {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			tb.Errorf("table %s: %v", table, err)
			continue
		}
		if w, ok := want[table]; ok && n != w {
			tb.Errorf("table %s has %d rows, want %d", table, n, w)
		}
	}
}
