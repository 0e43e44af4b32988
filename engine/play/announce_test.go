package play

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/live"
)

// announceStore is a memStore that, each time a move or an ending is about
// to be written, looks at what the game's subscribers have been told so
// far: nothing about that move or ending may be out yet.
type announceStore struct {
	*memStore
	sub   *live.Subscription[int64, *Event]
	early []string // events seen before their write
	told  []string // every event seen, in order
}

// look reads what the subscriber has been told without waiting, and notes
// an event about ply (or later), or an ending, as told too early before
// what; with what "" it only reads.
func (a *announceStore) look(ply int, what string) {
	if a.sub == nil {
		return
	}
	for {
		select {
		case ev := <-a.sub.C():
			desc := fmt.Sprintf("%T@%d", ev.Payload, ev.ID())
			a.told = append(a.told, desc)
			if what == "" {
				continue
			}
			switch ev.Payload.(type) {
			case game.Moved:
				if ev.ID() >= ply {
					a.early = append(a.early, desc+" before "+what)
				}
			case game.Ended:
				a.early = append(a.early, desc+" before "+what)
			}
		default:
			return
		}
	}
}

func (a *announceStore) AppendMove(ctx context.Context, id int64, mv StoredMove, end *Ending) error {
	a.look(mv.Ply, fmt.Sprintf("storing move %d", mv.Ply))
	return a.memStore.AppendMove(ctx, id, mv, end)
}

func (a *announceStore) FinishGame(ctx context.Context, id int64, end Ending) error {
	a.look(1<<30, "storing the end")
	return a.memStore.FinishGame(ctx, id, end)
}

// TestMoveStoredBeforeAnnounced (DESIGN.md "How a move flows", step 4):
// each move, and the end of the game, is written to the store before any
// subscriber hears of it; a move the store refuses is never announced.
func TestMoveStoredBeforeAnnounced(t *testing.T) {
	st := &announceStore{memStore: newMemStore()}
	s := newService(st)
	defer s.Close()
	ctx := context.Background()
	id, w, b := privateGame(t, s, "5+0")
	st.sub = s.Subscribe(id)
	defer st.sub.Close()

	moves := []string{"e4", "e5", "Nf3", "Nc6"}
	for ply, text := range moves {
		user := w
		if ply%2 == 1 {
			user = b
		}
		if err := s.Move(ctx, id, user, text, chess.English, ply); err != nil {
			t.Fatalf("move %s: %v", text, err)
		}
	}
	// A write that fails: the move is refused and nobody hears of it.
	st.mu.Lock()
	st.fail = true
	st.mu.Unlock()
	if err := s.Move(ctx, id, w, "Bc4", chess.English, len(moves)); err == nil {
		t.Fatal("a move the store refused was accepted")
	}
	st.look(len(moves)+1, "the refused move")
	st.mu.Lock()
	st.fail = false
	st.mu.Unlock()
	if err := s.Resign(ctx, id, b); err != nil {
		t.Fatal(err)
	}
	st.look(0, "")

	if len(st.early) > 0 {
		t.Errorf("announced before stored: %q (all events %q)", st.early, st.told)
	}
	var moved, ended int
	for _, ev := range st.told {
		switch {
		case strings.HasPrefix(ev, "game.Moved@"):
			moved++
		case strings.HasPrefix(ev, "game.Ended@"):
			ended++
		}
	}
	if moved != len(moves) || ended != 1 {
		t.Errorf("events told: %q; want %d moves and one end", st.told, len(moves))
	}
}
