package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"

	"satranc/engine/account"
	"satranc/engine/game"
	"satranc/engine/play"
)

// countedUsers names every user "user N" and counts the reads.
type countedUsers struct {
	mu    sync.Mutex
	reads int
}

func (c *countedUsers) UserByID(_ context.Context, id int64) (account.User, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads++
	return account.User{ID: id, Name: fmt.Sprintf("user %d", id)}, nil
}

func (c *countedUsers) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads
}

// TestGamePlayersShared: the streams of one game read its players once
// and share them; they read again when the seats change or the game
// ends, and the game's entry goes with its last stream.
func TestGamePlayersShared(t *testing.T) {
	users := &countedUsers{}
	h := &Handler{users: users, log: slog.New(slog.DiscardHandler)}
	ctx := context.Background()
	snap := play.Snapshot{ID: 7, White: game.Human(1), Black: game.Human(2), Status: game.Active}

	for range 3 { // three streams of game 7
		h.players.hold(snap.ID)
	}
	for i := range 3 {
		p := h.players.of(ctx, h, snap)
		if p.names[1] != "user 1" || p.names[2] != "user 2" {
			t.Fatalf("stream %d: names %v", i, p.names)
		}
		if p.ratings != nil {
			t.Errorf("stream %d: ratings %v in a private game, want none", i, p.ratings)
		}
	}
	if got := users.count(); got != 2 {
		t.Errorf("three streams read the two players %d times, want 2", got)
	}

	// A guest sits down: read again, once.
	seated := snap
	seated.Black = game.Human(3)
	for range 2 {
		if p := h.players.of(ctx, h, seated); p.names[3] != "user 3" {
			t.Fatalf("after the seats changed: names %v", p.names)
		}
	}
	if got := users.count(); got != 4 {
		t.Errorf("after the seats changed: %d reads, want 4", got)
	}
	// The game ends: the ratings change, read again.
	over := seated
	over.Status = game.Finished
	h.players.of(ctx, h, over)
	h.players.of(ctx, h, over)
	if got := users.count(); got != 6 {
		t.Errorf("after the end: %d reads, want 6", got)
	}

	for range 3 {
		h.players.release(snap.ID)
	}
	if n := len(h.players.games); n != 0 {
		t.Errorf("%d games kept after their last stream closed, want 0", n)
	}
	// Without a stream holding the game, nothing is kept.
	h.players.of(ctx, h, snap)
	h.players.of(ctx, h, snap)
	if got := users.count(); got != 10 {
		t.Errorf("reads of a game no stream holds: %d in all, want 10", got)
	}
	h.players.release(snap.ID) // a release too many does nothing
}
