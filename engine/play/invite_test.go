package play

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/clock"
	"satranc/engine/game"
)

// checkExpired checks that game id is stored as cancelled at by, its
// invitation expired, with no result.
func checkExpired(t *testing.T, st *memStore, id int64, by time.Time) {
	t.Helper()
	rec, err := st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	host := rec.White
	side := "white"
	if host.IsEmpty() {
		host, side = rec.Black, "black"
	}
	if rec.Status != game.Aborted || rec.Outcome.Reason != game.InviteExpired || rec.Outcome.Result != game.NoResult ||
		rec.Outcome.Side.String() != side || host.User != 1 || !rec.EndedAt.Equal(by) {
		t.Errorf("game %d: %v %v ended %v (host %v at %s); want aborted, invitation expired, ended %v",
			id, rec.Status, rec.Outcome, rec.EndedAt, host, side, by)
	}
}

// TestInviteExpires: a private game nobody joins is cancelled when its
// invitation expires (a day by default), its writer stops, its followers
// see the end, and the friend who comes later cannot join.
func TestInviteExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		defer s.Close()
		ctx := context.Background()
		created := time.Now()
		id, token, err := s.CreatePrivateGame(ctx, 1, clock.MustParse("3+2"))
		if err != nil {
			t.Fatal(err)
		}
		sub := s.Subscribe(id)
		defer sub.Close()

		time.Sleep(DefaultInviteExpiry - time.Second)
		synctest.Wait()
		if rec, _ := st.Game(ctx, id); rec.Status != game.Waiting || s.LiveGames() != 1 {
			t.Fatalf("a second before the expiry: %v, %d live games", rec.Status, s.LiveGames())
		}
		time.Sleep(time.Second)
		synctest.Wait()
		checkExpired(t, st, id, created.Add(DefaultInviteExpiry))
		if n := s.LiveGames(); n != 0 {
			t.Errorf("%d live games after the expiry, want 0 (the writer stops)", n)
		}
		select {
		case e := <-sub.C():
			if ended, ok := e.Payload.(game.Ended); !ok || ended.Outcome.Reason != game.InviteExpired {
				t.Errorf("published %#v, want Ended by the invitation's expiry", e.Payload)
			}
		default:
			t.Error("nothing published at the expiry")
		}

		got, err := s.JoinPrivateGame(ctx, 2, token)
		if got != id || !errors.Is(err, game.ErrSeatTaken) {
			t.Errorf("JoinPrivateGame after the expiry = %d, %v; want %d, ErrSeatTaken", got, err, id)
		}
		if got, err := s.JoinPrivateGame(ctx, 1, token); got != id || err != nil {
			t.Errorf("the creator opening the expired link = %d, %v; want %d, nil", got, err, id)
		}
		snap, err := s.Game(ctx, id)
		if err != nil || snap.Outcome.Reason != game.InviteExpired {
			t.Errorf("snapshot after the expiry: %v, %v", snap.Outcome, err)
		}
		if _, err := s.Rematch(ctx, id, 1); !errors.Is(err, ErrInvalid) {
			t.Errorf("rematch of a game nobody joined = %v, want ErrInvalid", err)
		}
	})
}

// TestInviteExpiryAcrossRestart: with Config.InviteExpiry, Recover cancels
// the private games whose invitation expired while the server was down,
// at the moment it expired and without reopening them, and reopens the
// others, which still expire on time.
func TestInviteExpiryAcrossRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		cfg := Config{Store: st, InviteExpiry: time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		s := New(cfg)
		ctx := context.Background()
		control := clock.MustParse("5+0")
		staleAt := time.Now()
		stale, _, err := s.CreatePrivateGame(ctx, 1, control)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(40 * time.Minute)
		freshAt := time.Now()
		fresh, _, err := s.CreatePrivateGame(ctx, 1, control)
		if err != nil {
			t.Fatal(err)
		}
		joined, token, err := s.CreatePrivateGame(ctx, 1, control)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.JoinPrivateGame(ctx, 2, token); err != nil {
			t.Fatal(err)
		}
		s.Close()

		time.Sleep(30 * time.Minute) // the server is down past the stale game's expiry
		s2 := New(cfg)
		defer s2.Close()
		n, err := s2.Recover(ctx)
		if err != nil || n != 2 {
			t.Fatalf("Recover() = %d, %v; want the fresh and the joined game reopened", n, err)
		}
		checkExpired(t, st, stale, staleAt.Add(time.Hour))
		for _, tc := range []struct {
			id   int64
			want game.Status
		}{{fresh, game.Waiting}, {joined, game.Active}} {
			if rec, _ := st.Game(ctx, tc.id); rec.Status != tc.want || s2.running(tc.id) == nil {
				t.Errorf("game %d after the restart: %v, running %v; want %v, running", tc.id, rec.Status, s2.running(tc.id) != nil, tc.want)
			}
		}
		if s2.running(stale) != nil {
			t.Error("the stale game was reopened")
		}

		time.Sleep(time.Until(freshAt.Add(time.Hour)))
		synctest.Wait()
		checkExpired(t, st, fresh, freshAt.Add(time.Hour))
		// The joined game had no deadline of its invitation: it ended
		// otherwise (nobody came back after the restart).
		if rec, _ := st.Game(ctx, joined); rec.Outcome.Reason == game.InviteExpired {
			t.Errorf("the joined game: %v", rec.Outcome)
		}
	})
}

// TestInviteDecline: the friend who declines cancels the waiting game as
// an expiry would, the creator's followers see it, the creator cannot
// decline their own invitation, and nobody can join or decline after.
func TestInviteDecline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		defer s.Close()
		ctx := context.Background()
		id, token, err := s.CreatePrivateGame(ctx, 1, clock.MustParse("3+2"))
		if err != nil {
			t.Fatal(err)
		}
		snap, err := s.Invitation(ctx, token)
		if err != nil || snap.ID != id || snap.Status != game.Waiting || snap.Control != clock.MustParse("3+2") {
			t.Fatalf("Invitation = %+v, %v; want game %d waiting at 3+2", snap, err, id)
		}
		if _, err := s.Invitation(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Invitation(wrong token) = %v, want ErrNotFound", err)
		}
		sub := s.Subscribe(id)
		defer sub.Close()
		if _, err := s.DeclinePrivateGame(ctx, 1, token); !errors.Is(err, game.ErrSeatTaken) {
			t.Errorf("the creator declining = %v, want ErrSeatTaken", err)
		}
		if got, err := s.DeclinePrivateGame(ctx, 2, token); got != id || err != nil {
			t.Fatalf("DeclinePrivateGame = %d, %v; want %d, nil", got, err, id)
		}
		synctest.Wait()
		rec, err := st.Game(ctx, id)
		if err != nil || rec.Status != game.Aborted || rec.Outcome.Reason != game.InviteDeclined || rec.Outcome.Result != game.NoResult {
			t.Errorf("stored after the decline: %v %v, %v; want aborted, invite declined", rec.Status, rec.Outcome, err)
		}
		select {
		case e := <-sub.C():
			if ended, ok := e.Payload.(game.Ended); !ok || ended.Outcome.Reason != game.InviteDeclined {
				t.Errorf("published %#v, want Ended by the decline", e.Payload)
			}
		default:
			t.Error("nothing published at the decline")
		}
		if n := s.LiveGames(); n != 0 {
			t.Errorf("%d live games after the decline, want 0", n)
		}
		if _, err := s.JoinPrivateGame(ctx, 3, token); !errors.Is(err, game.ErrSeatTaken) {
			t.Errorf("joining after the decline = %v, want ErrSeatTaken", err)
		}
		if _, err := s.DeclinePrivateGame(ctx, 3, token); !errors.Is(err, game.ErrSeatTaken) {
			t.Errorf("declining again = %v, want ErrSeatTaken", err)
		}
	})
}
