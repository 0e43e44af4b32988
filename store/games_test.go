package store

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

var gameT0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// mustUsers inserts users with ids 1..n.
func mustUsers(t testing.TB, s *Store, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		_, err := s.db.Exec(`INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, 'x', ?)`,
			i, "user"+string(rune('a'+i)), s.now())
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestGameLifecycle(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	ctx := context.Background()

	id, err := s.CreateGame(ctx, play.GameRecord{
		Kind: play.Private, White: game.Human(1), Control: clock.MustParse("3+2"),
		Status: game.Waiting, InviteToken: "tok", CreatedAt: gameT0,
	})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.GameByInvite(ctx, "tok")
	if err != nil || g.ID != id || g.Status != game.Waiting || g.White != game.Human(1) || !g.Black.IsEmpty() {
		t.Fatalf("GameByInvite = %+v, %v", g, err)
	}
	if g.Control != clock.MustParse("3+2") || g.StartFEN != chess.StartFEN || !g.CreatedAt.Equal(gameT0) || !g.StartedAt.IsZero() {
		t.Errorf("stored game %+v", g)
	}
	if err := s.AppendMove(ctx, id, play.StoredMove{Ply: 1, UCI: "e2e4", At: gameT0}, nil); err == nil {
		t.Error("move in a waiting game accepted")
	}
	if err := s.StartGame(ctx, id, game.Human(1), game.Human(2), gameT0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.StartGame(ctx, id, game.Human(1), game.Human(2), gameT0); err == nil {
		t.Error("started twice")
	}
	moves := []play.StoredMove{
		{Ply: 1, UCI: "f2f3", At: gameT0.Add(61 * time.Second), Clock: 181500 * time.Millisecond, HasClock: true},
		{Ply: 2, UCI: "e7e5", At: gameT0.Add(62 * time.Second), Clock: 181 * time.Second, HasClock: true},
		{Ply: 3, UCI: "g2g4", At: gameT0.Add(63 * time.Second), Clock: 181 * time.Second, HasClock: true},
	}
	for _, m := range moves {
		if err := s.AppendMove(ctx, id, m, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AppendMove(ctx, id, moves[2], nil); err == nil {
		t.Error("duplicate ply accepted")
	}
	unfinished, err := s.UnfinishedGames(ctx)
	if err != nil || len(unfinished) != 1 || len(unfinished[0].Moves) != 3 {
		t.Fatalf("UnfinishedGames = %d games, %v", len(unfinished), err)
	}
	mate := play.StoredMove{Ply: 4, UCI: "d8h4", At: gameT0.Add(64 * time.Second), Clock: 180 * time.Second, HasClock: true}
	end := &play.Ending{Status: game.Finished, At: mate.At,
		Outcome: game.Outcome{Result: game.BlackWins, Reason: game.Checkmate, Side: chess.White}}
	if err := s.AppendMove(ctx, id, mate, end); err != nil {
		t.Fatal(err)
	}
	g, err = s.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != game.Finished || g.Outcome.Result != game.BlackWins || g.Outcome.Reason != game.Checkmate ||
		g.Outcome.Side != chess.White || !g.EndedAt.Equal(mate.At) || !g.StartedAt.Equal(gameT0.Add(time.Minute)) {
		t.Errorf("finished game %+v", g)
	}
	if len(g.Moves) != 4 || g.Moves[0] != moves[0] || g.Moves[3] != mate {
		t.Errorf("moves %+v", g.Moves)
	}
	if err := s.FinishGame(ctx, id, *end); err == nil {
		t.Error("finished twice")
	}
	if unfinished, _ := s.UnfinishedGames(ctx); len(unfinished) != 0 {
		t.Errorf("UnfinishedGames after the end = %d", len(unfinished))
	}
}

func TestGameAbortedPracticeUntimed(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 1)
	ctx := context.Background()
	id, err := s.CreateGame(ctx, play.GameRecord{
		Kind: play.Practice, White: game.Bot(game.Hard), Black: game.Human(1),
		Status: game.Active, CreatedAt: gameT0, StartedAt: gameT0, RematchOf: 0,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, id, play.StoredMove{Ply: 1, UCI: "e2e4", At: gameT0}, nil); err != nil {
		t.Fatal(err)
	}
	end := play.Ending{Status: game.Aborted, At: gameT0.Add(time.Second),
		Outcome: game.Outcome{Reason: game.Abort, Side: chess.Black, Cause: game.Resignation}}
	if err := s.FinishGame(ctx, id, end); err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.White != game.Bot(game.Hard) || g.Control.Timed() || g.Moves[0].HasClock || g.Status != game.Aborted ||
		g.Outcome.Reason != game.Abort || g.Outcome.Side != chess.Black || g.Outcome.Result != game.NoResult {
		t.Errorf("game %+v", g)
	}
	rematch, err := s.CreateGame(ctx, play.GameRecord{Kind: play.Practice, White: game.Human(1), Black: game.Bot(game.Hard),
		Status: game.Active, CreatedAt: gameT0, StartedAt: gameT0, RematchOf: id})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := s.Game(ctx, rematch); r.RematchOf != id {
		t.Errorf("RematchOf = %d, want %d", r.RematchOf, id)
	}
}

func TestGameNotFound(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	checks := []struct {
		name string
		err  error
	}{
		{"Game", func() error { _, err := s.Game(ctx, 42); return err }()},
		{"GameByInvite", func() error { _, err := s.GameByInvite(ctx, "x"); return err }()},
		{"StartGame", s.StartGame(ctx, 42, game.Human(1), game.Human(2), gameT0)},
		{"AppendMove", s.AppendMove(ctx, 42, play.StoredMove{Ply: 1, UCI: "e2e4", At: gameT0}, nil)},
		{"FinishGame", s.FinishGame(ctx, 42, play.Ending{Status: game.Finished, At: gameT0})},
	}
	for _, c := range checks {
		if !errors.Is(c.err, ErrNotFound) || !errors.Is(c.err, play.ErrNotFound) {
			t.Errorf("%s(missing) = %v, want ErrNotFound and play.ErrNotFound", c.name, c.err)
		}
	}
}

// TestPlayRestartOnSQLite plays a game through engine/play on the real
// store, drops the service as a crash would, and reopens it later on the
// same database file: every move is there and the clocks follow the
// restart policy.
func TestPlayRestartOnSQLite(t *testing.T) {
	s, path := mustOpenSQLite(t)
	mustUsers(t, s, 2)
	ctx := context.Background()
	var mu sync.Mutex // the writers read the clock too
	now := gameT0
	clockFn := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	cfg := play.Config{Store: s, Now: clockFn, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}

	svc := play.New(cfg)
	id, token, err := svc.CreatePrivateGame(ctx, 1, clock.MustParse("5+0"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.JoinPrivateGame(ctx, 2, token); err != nil {
		t.Fatal(err)
	}
	snap, _ := svc.Game(ctx, id)
	white, black := snap.White.User, snap.Black.User
	moves := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7")
	for i, m := range moves {
		advance(2 * time.Second)
		user := white
		if i%2 == 1 {
			user = black
		}
		if err := svc.Move(ctx, id, user, m, chess.English, i); err != nil {
			t.Fatalf("Move(%s) = %v", m, err)
		}
	}
	svc.Close()

	// A second store on the same file, as after a crash and restart, 40 s later.
	s2, err := openAt(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	advance(40 * time.Second)
	cfg.Store = s2
	svc2 := play.New(cfg)
	defer svc2.Close()
	if n, err := svc2.Recover(ctx); err != nil || n != 1 {
		t.Fatalf("Recover() = %d, %v", n, err)
	}
	after, err := svc2.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Ply != len(moves) || after.Status != game.Active {
		t.Fatalf("after restart: ply %d, status %v", after.Ply, after.Status)
	}
	// Each side used 2 s per move for four of its five moves (the clocks
	// start with Black's first move); White (to move) also pays the 40 s
	// of downtime.
	if want := 5*time.Minute - 8*time.Second - 40*time.Second; after.Clocks.White != want {
		t.Errorf("White's clock %v, want %v", after.Clocks.White, want)
	}
	if want := 5*time.Minute - 8*time.Second; after.Clocks.Black != want {
		t.Errorf("Black's clock %v, want %v", after.Clocks.Black, want)
	}
	advance(time.Second)
	if err := svc2.Move(ctx, id, white, "Re1", chess.English, len(moves)); err != nil {
		t.Fatalf("the game goes on: %v", err)
	}
	if err := svc2.Resign(ctx, id, black); err != nil {
		t.Fatal(err)
	}
	g, err := s2.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != game.Finished || g.Outcome.Reason != game.Resignation || len(g.Moves) != 11 {
		t.Errorf("stored: %v %v, %d moves", g.Status, g.Outcome, len(g.Moves))
	}
	var check string
	if err := s2.db.Get(&check, "PRAGMA integrity_check"); err != nil || check != "ok" {
		t.Errorf("integrity_check = %q, %v", check, err)
	}
}
