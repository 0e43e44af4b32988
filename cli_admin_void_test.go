package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/clock"
	"satranc/engine/fairplay"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/store"
)

// heardVoids is a running server's announcer in TestAdminVoidAnnounced:
// it passes on the games it hears of.
type heardVoids chan int64

func (h heardVoids) ResultVoided(id int64, _ time.Time) { h <- id }

// runAdminArgs runs `satranc admin --db db args...`.
func runAdminArgs(ctx context.Context, db string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := runAdmin(ctx, append([]string{"--db", db}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestAdminVoidAnnounced: `satranc admin void`, which shares only the
// database with a running server, reaches that server's open pages: the
// server's watcher (fairplay.WatchVoids on its own store, as handlers/app's
// watchVoids runs it) finds the void and announces it, once.
func TestAdminVoidAnnounced(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "void.db")
	server, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	u, err := server.CreateUser(ctx, account.NewUser{Name: "Zeynep", PasswordHash: "x", Language: "tr"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	id, _, err := server.CreatePublicGame(ctx, play.GameRecord{Kind: play.Quick, White: game.Human(u.ID), Black: game.Bot(game.Easy),
		Control: clock.MustParse("3+2"), Status: game.Active, CreatedAt: now, StartedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := server.FinishGame(ctx, id, play.Ending{Status: game.Finished,
		Outcome: game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}, At: now}); err != nil {
		t.Fatal(err)
	}

	heard := make(heardVoids, 4)
	watchCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		fairplay.WatchVoids(watchCtx, server, heard, now, 10*time.Millisecond, func(err error) { t.Error(err) })
	}()
	defer func() { stop(); <-done }()

	if code, out, errOut := runAdminArgs(ctx, db, "void", strconv.FormatInt(id, 10)); code != 0 {
		t.Fatalf("admin void = %d, %q, %q", code, out, errOut)
	}
	select {
	case got := <-heard:
		if got != id {
			t.Errorf("announced game %d, want %d", got, id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not hear of the void made by satranc admin")
	}
	select {
	case got := <-heard:
		t.Errorf("game %d announced again", got)
	case <-time.After(100 * time.Millisecond):
	}
}
