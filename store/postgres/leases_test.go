package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/store"
)

func TestGameLeases(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	ctx := context.Background()
	id, err := s.CreateGame(ctx, play.GameRecord{Kind: play.Private, White: game.Human(1),
		Control: clock.MustParse("3+2"), Status: game.Waiting, InviteToken: "tok", CreatedAt: gameT0})
	if err != nil {
		t.Fatal(err)
	}
	claim := func(node string, ttl time.Duration, wantNode string, wantEpoch int64) {
		t.Helper()
		l, err := s.ClaimGame(ctx, id, node, "http://"+node, ttl)
		if err != nil || l.Node != wantNode || l.Addr != "http://"+wantNode || l.Epoch != wantEpoch {
			t.Fatalf("ClaimGame by %s = %+v, %v; want %s at epoch %d", node, l, err, wantNode, wantEpoch)
		}
	}
	owner := func(want string) {
		t.Helper()
		l, ok, err := s.GameLease(ctx, id)
		if err != nil || ok != (want != "") || l.Node != want {
			t.Fatalf("GameLease = %+v, %v, %v; want owner %q", l, ok, err, want)
		}
	}

	owner("")
	claim("a", time.Minute, "a", 1)
	claim("b", time.Minute, "a", 1) // a holds it
	claim("a", time.Minute, "a", 1) // the owner renews, same epoch
	owner("a")
	if n, err := s.RenewLeases(ctx, "a", time.Minute, gameT0); err != nil || n != 1 {
		t.Errorf("RenewLeases(a) = %d, %v; want 1", n, err)
	}

	if err := s.ReleaseLeases(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	owner("")
	claim("b", time.Minute, "b", 2) // a released it: b takes over
	claim("a", time.Minute, "b", 2)

	// A lease that lapses (here at once) lets another node take over.
	claim("b", -time.Second, "b", 2)
	owner("")
	claim("a", time.Minute, "a", 3)

	// Over, and ended before endedAfter: no longer renewed.
	if err := s.FinishGame(ctx, id, play.Ending{Status: game.Aborted, At: gameT0.Add(time.Second)}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.RenewLeases(ctx, "a", time.Minute, gameT0.Add(time.Hour)); err != nil || n != 0 {
		t.Errorf("RenewLeases(a) of a game ended before endedAfter = %d, %v; want 0", n, err)
	}
	if n, err := s.RenewLeases(ctx, "a", time.Minute, gameT0); err != nil || n != 1 {
		t.Errorf("RenewLeases(a) of a game ended after endedAfter = %d, %v; want 1", n, err)
	}

	if _, err := s.ClaimGame(ctx, id+100, "a", "http://a", time.Minute); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ClaimGame of a missing game = %v, want ErrNotFound", err)
	}
}

// TestLeaseFencing: on a cluster's node (FenceAs), a game's start,
// moves and end are written only while the node holds the game's lease;
// a node whose lease lapsed and was taken over writes nothing.
func TestLeaseFencing(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	ctx := context.Background()
	id, err := s.CreateGame(ctx, play.GameRecord{Kind: play.Private, White: game.Human(1),
		Control: clock.MustParse("3+2"), Status: game.Waiting, InviteToken: "tok", CreatedAt: gameT0})
	if err != nil {
		t.Fatal(err)
	}
	s.FenceAs("a")
	start := func() error { return s.StartGame(ctx, id, game.Human(1), game.Human(2), gameT0) }
	move := func(ply int, uci string) error {
		return s.AppendMove(ctx, id, play.StoredMove{Ply: ply, UCI: uci, At: gameT0}, nil)
	}
	if err := start(); !errors.Is(err, play.ErrNotOwner) {
		t.Fatalf("StartGame without the lease = %v, want play.ErrNotOwner", err)
	}
	if _, err := s.ClaimGame(ctx, id, "a", "http://a", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := start(); err != nil {
		t.Fatal(err)
	}
	if err := move(1, "e2e4"); err != nil {
		t.Fatal(err)
	}

	// a's lease lapses (here at once) and b takes the game over.
	if _, err := s.ClaimGame(ctx, id, "a", "http://a", -time.Second); err != nil {
		t.Fatal(err)
	}
	if l, err := s.ClaimGame(ctx, id, "b", "http://b", time.Minute); err != nil || l.Node != "b" {
		t.Fatalf("ClaimGame(b) = %+v, %v", l, err)
	}
	if err := move(2, "e7e5"); !errors.Is(err, play.ErrNotOwner) {
		t.Errorf("AppendMove by the node that lost the game = %v, want play.ErrNotOwner", err)
	}
	end := play.Ending{Status: game.Aborted, At: gameT0.Add(time.Second)}
	if err := s.FinishGame(ctx, id, end); !errors.Is(err, play.ErrNotOwner) {
		t.Errorf("FinishGame by the node that lost the game = %v, want play.ErrNotOwner", err)
	}
	if g, err := s.Game(ctx, id); err != nil || len(g.Moves) != 1 || g.Status != game.Active {
		t.Fatalf("game after the refused writes: %d moves, %v, %v; want 1 move, active", len(g.Moves), g.Status, err)
	}

	s.FenceAs("b")
	if err := move(2, "e7e5"); err != nil {
		t.Errorf("AppendMove by the new owner = %v", err)
	}
}
