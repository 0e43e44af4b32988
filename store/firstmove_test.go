package store

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// waitEnded polls the store until game id is over, for up to 10 s.
func waitEnded(t *testing.T, s *Store, id int64) play.GameRecord {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		rec, err := s.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Status.Over() {
			return rec
		}
		if time.Now().After(deadline) {
			t.Fatalf("game %d still %v after 10 s", id, rec.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFirstMoveAbortOnSQLite: at a lounge table nobody moves; when White's
// first-move time runs out the writer's timer aborts the game, and the
// store settles it as aborted: both stakes back, no rating, no XP, the
// reason and side stored.
func TestFirstMoveAbortOnSQLite(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	a, b := mustCreateUser(t, s, "ayşe"), mustCreateUser(t, s, "bora")
	svc := play.New(play.Config{Store: s, FirstMoveTime: 300 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer svc.Close()
	ratingA, _, _ := rating(t, s, a.ID)

	id, _, err := svc.CreatePublicGame(ctx, play.Lounge, game.Human(a.ID), game.Human(b.ID), clock.MustParse("1+0"), 500)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := svc.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if want := snap.StartedAt.Add(300 * time.Millisecond); !snap.FirstMoveBy.Equal(want) || snap.Clocks.Running {
		t.Fatalf("at the start: FirstMoveBy %v, clocks %+v; want %v and no clock running", snap.FirstMoveBy, snap.Clocks, want)
	}
	wantBalances(t, s, map[int64]int64{a.ID: 4500, b.ID: 4500})

	rec := waitEnded(t, s, id)
	want := game.Outcome{Result: game.NoResult, Reason: game.NoFirstMove, Side: chess.White}
	if rec.Status != game.Aborted || rec.Outcome != want || len(rec.Moves) != 0 {
		t.Fatalf("stored %v %v with %d moves, want aborted, %v", rec.Status, rec.Outcome, len(rec.Moves), want)
	}
	if late := rec.EndedAt.Sub(rec.StartedAt); late < 300*time.Millisecond || late > time.Second {
		t.Errorf("ended %v after the start, want at the 300 ms deadline", late)
	}
	wantBalances(t, s, map[int64]int64{a.ID: 5000, b.ID: 5000})
	if r, rated, xp := rating(t, s, a.ID); r != ratingA || rated != 0 || xp != 0 {
		t.Errorf("after the abort: rating %d (%d rated games), %d XP; want %d, 0, 0", r, rated, xp, ratingA)
	}
}

// TestFirstMoveRestartOnSQLite: White moves, the server goes down and
// comes back: Black's first-move deadline is rebuilt from White's stored
// move, and the reopened writer aborts the game when it passes.
func TestFirstMoveRestartOnSQLite(t *testing.T) {
	s, path := mustOpen(t)
	mustUsers(t, s, 2)
	ctx := context.Background()
	cfg := play.Config{Store: s, FirstMoveTime: 2 * time.Second, RestartGrace: time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	svc := play.New(cfg)
	id, _, err := svc.CreatePublicGame(ctx, play.Quick, game.Human(1), game.Human(2), clock.MustParse("3+2"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Move(ctx, id, 1, "e4", chess.English, 0); err != nil {
		t.Fatal(err)
	}
	svc.Close()

	s2, err := openAt(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	cfg.Store = s2
	svc2 := play.New(cfg)
	defer svc2.Close()
	if n, err := svc2.Recover(ctx); err != nil || n != 1 {
		t.Fatalf("Recover() = %d, %v", n, err)
	}
	stored, err := s2.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := svc2.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if want := stored.Moves[0].At.Add(2 * time.Second); !snap.FirstMoveBy.Equal(want) {
		t.Errorf("after the restart Black's first move is due by %v, want %v (White's move + 2 s)", snap.FirstMoveBy, want)
	}
	if snap.Clocks.Running || snap.Clocks.White != 3*time.Minute || snap.Clocks.Black != 3*time.Minute {
		t.Errorf("clocks after the restart %+v, want both standing at 3:00", snap.Clocks)
	}

	rec := waitEnded(t, s2, id)
	want := game.Outcome{Result: game.NoResult, Reason: game.NoFirstMove, Side: chess.Black}
	if rec.Status != game.Aborted || rec.Outcome != want || len(rec.Moves) != 1 {
		t.Errorf("stored %v %v with %d moves, want aborted, %v", rec.Status, rec.Outcome, len(rec.Moves), want)
	}
	if r, rated, _ := rating(t, s2, 2); rated != 0 {
		t.Errorf("Black's rating %d after %d rated games, want no rated game", r, rated)
	}
}
