package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"sync"
	"testing"

	"satranc/engine/account"
	"satranc/engine/game"
	"satranc/engine/play"
)

// countedUsers names every user "user N", or as renamed, and counts the
// reads.
type countedUsers struct {
	mu      sync.Mutex
	reads   int
	renamed map[int64]string
}

func (c *countedUsers) UserByID(_ context.Context, id int64) (account.User, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads++
	if name, ok := c.renamed[id]; ok {
		return account.User{ID: id, Name: name}, nil
	}
	return account.User{ID: id, Name: fmt.Sprintf("user %d", id)}, nil
}

func (c *countedUsers) rename(id int64, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.renamed = setIn(c.renamed, id, name)
}

func (c *countedUsers) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads
}

// TestGamePlayersShared: the streams of one game read its players when
// they open and share one copy; a stream opened after a player changed
// sees the change; the streams read again when the seats change or the
// game ends, and the game's entry goes with its last stream.
func TestGamePlayersShared(t *testing.T) {
	users := &countedUsers{}
	h := &Handler{users: users, log: slog.New(slog.DiscardHandler)}
	ctx := context.Background()
	snap := play.Snapshot{ID: 7, White: game.Human(1), Black: game.Human(2), Status: game.Active}

	var first players
	for i := range 3 { // three streams of game 7 open
		h.players.hold(snap.ID)
		p := h.players.fresh(ctx, h, snap)
		if p.names[1] != "user 1" || p.names[2] != "user 2" {
			t.Fatalf("stream %d: names %v", i, p.names)
		}
		if p.ratings != nil {
			t.Errorf("stream %d: ratings %v in a private game, want none", i, p.ratings)
		}
		if i == 0 {
			first = p
		} else if reflect.ValueOf(p.names).Pointer() != reflect.ValueOf(first.names).Pointer() {
			t.Errorf("stream %d holds its own copy of the names, want the first stream's", i)
		}
	}
	if got := users.count(); got != 6 {
		t.Errorf("three streams opening read the two players %d times, want 6", got)
	}

	// A player changes their name with the streams open: a stream that
	// opens now sees it, and so do those that read after it.
	users.rename(1, "ece")
	h.players.hold(snap.ID)
	if p := h.players.fresh(ctx, h, snap); p.names[1] != "ece" {
		t.Errorf("a stream opened after the change: names %v", p.names)
	}
	// A guest sits down: read again, once for all the streams.
	seated := snap
	seated.Black = game.Human(3)
	for range 2 {
		if p := h.players.of(ctx, h, seated); p.names[1] != "ece" || p.names[3] != "user 3" {
			t.Fatalf("after the seats changed: names %v", p.names)
		}
	}
	if got := users.count(); got != 10 {
		t.Errorf("after the seats changed: %d reads, want 10", got)
	}
	// The game ends: the ratings change, read again.
	over := seated
	over.Status = game.Finished
	h.players.of(ctx, h, over)
	h.players.of(ctx, h, over)
	if got := users.count(); got != 12 {
		t.Errorf("after the end: %d reads, want 12", got)
	}

	for range 4 {
		h.players.release(snap.ID)
	}
	if n := len(h.players.games); n != 0 {
		t.Errorf("%d games kept after their last stream closed, want 0", n)
	}
	// Without a stream holding the game, nothing is kept.
	h.players.of(ctx, h, snap)
	h.players.of(ctx, h, snap)
	if got := users.count(); got != 16 {
		t.Errorf("reads of a game no stream holds: %d in all, want 16", got)
	}
	h.players.release(snap.ID) // a release too many does nothing
}
