package play

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// leases stands for the cluster of services that share a store, as nodes
// share a database: the first to claim a game owns it until it is
// released.
type leases struct {
	mu    sync.Mutex
	owner map[int64]string
}

// nodeOf is one node's Config.Cluster: its claims go to the leases, its
// events nowhere.
type nodeOf struct {
	l    *leases
	node string
}

func (n nodeOf) Claim(_ context.Context, id int64) error {
	n.l.mu.Lock()
	defer n.l.mu.Unlock()
	if o, ok := n.l.owner[id]; ok && o != n.node {
		return fmt.Errorf("%w: %s", ErrNotOwner, o)
	}
	n.l.owner[id] = n.node
	return nil
}

func (nodeOf) Publish(int64, Event) {}

func (l *leases) release(node string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, o := range l.owner {
		if o == node {
			delete(l.owner, id)
		}
	}
}

// TestClaimOneWriterPerGame: two services on one store, as two nodes on one
// database. Only the one that owns a game runs its writer; the other
// refuses its requests with ErrNotOwner and leaves it alone on recovery,
// until the owner lets go and it takes the game over from the store.
func TestClaimOneWriterPerGame(t *testing.T) {
	st := newMemStore()
	l := &leases{owner: make(map[int64]string)}
	node := func(name string) *Service {
		return New(Config{Store: st, Cluster: nodeOf{l, name}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}
	a, b := node("a"), node("b")
	defer b.Close()
	ctx := context.Background()

	id, token, err := a.CreatePrivateGame(ctx, 1, clock.MustParse("5+0"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.JoinPrivateGame(ctx, 2, token); !errors.Is(err, ErrNotOwner) {
		t.Fatalf("join on the node that does not own the game = %v, want ErrNotOwner", err)
	}
	if n, err := b.Recover(ctx); err != nil || n != 0 {
		t.Fatalf("Recover() on the other node = %d, %v; want 0 games (a owns it)", n, err)
	}
	if _, err := a.JoinPrivateGame(ctx, 2, token); err != nil {
		t.Fatal(err)
	}
	snap, err := a.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	white, black := snap.White.User, snap.Black.User
	if err := b.Move(ctx, id, white, "e4", chess.English, 0); !errors.Is(err, ErrNotOwner) {
		t.Fatalf("move on the other node = %v, want ErrNotOwner", err)
	}
	if err := a.Move(ctx, id, white, "e4", chess.English, 0); err != nil {
		t.Fatal(err)
	}

	// Another node took the game over while a's writer still runs (a was
	// paused past its lease): a's next write finds out and stops, and the
	// game stays as stored.
	l.mu.Lock()
	l.owner[id] = "c"
	l.mu.Unlock()
	if err := a.Move(ctx, id, black, "e5", chess.English, 1); !errors.Is(err, ErrNotOwner) {
		t.Fatalf("move on the node that lost the game = %v, want ErrNotOwner", err)
	}
	if rec, _ := st.Game(ctx, id); len(rec.Moves) != 1 {
		t.Fatalf("stored moves after the refused write: %d, want 1", len(rec.Moves))
	}
	l.mu.Lock()
	l.owner[id] = "a"
	l.mu.Unlock()

	// The owner stops and lets go: the other node takes over from the store.
	a.Close()
	l.release("a")
	if err := b.Move(ctx, id, black, "e5", chess.English, 1); err != nil {
		t.Fatalf("move after the take-over = %v", err)
	}
	snap, err = b.Game(ctx, id)
	if err != nil || snap.Ply != 2 || snap.Status != game.Active {
		t.Fatalf("game on the new owner: ply %d, status %v, err %v; want ply 2, active", snap.Ply, snap.Status, err)
	}
}
