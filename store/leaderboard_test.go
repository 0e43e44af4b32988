package store

import (
	"context"
	"errors"
	"testing"
)

func TestLeaderboard(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 5)
	ctx := context.Background()
	// user: rating, rated games
	for _, u := range []struct{ id, rating, games int }{{1, 1200, 0}, {2, 1350, 4}, {3, 1200, 2}, {4, 1100, 1}, {5, 1350, 9}} {
		if _, err := s.db.Exec(`UPDATE users SET rating = ?, rated_games = ? WHERE id = ?`, u.rating, u.games, u.id); err != nil {
			t.Fatal(err)
		}
	}
	top, err := s.Leaderboard(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		rank int
		user int64
	}{{1, 5}, {1, 2}, {3, 3}}
	if len(top) != len(want) {
		t.Fatalf("Leaderboard(3) = %+v, want %d rows", top, len(want))
	}
	for i, w := range want {
		if top[i].Rank != w.rank || top[i].User != w.user {
			t.Errorf("Leaderboard(3)[%d] = %+v, want rank %d user %d", i, top[i], w.rank, w.user)
		}
	}
	st, err := s.StandingOf(ctx, 4)
	if err != nil || st.Rank != 5 || st.Rating != 1100 || st.RatedGames != 1 {
		t.Errorf("StandingOf(4) = %+v, %v; want rank 5 at 1100", st, err)
	}
	if _, err := s.StandingOf(ctx, 99); !errors.Is(err, ErrNotFound) {
		t.Errorf("StandingOf(99) = %v, want ErrNotFound", err)
	}
	p, err := s.LobbyPlayer(ctx, 2)
	if err != nil || p.Rating != 1350 || p.User != 2 || p.Female || p.VIP || p.Restricted {
		t.Errorf("LobbyPlayer(2) = %+v, %v", p, err)
	}
}

// TestLeaderboardBeyondTop100: with 105 players of different ratings the
// top 100 leave out the weakest five, whose own places are still known
// (the page shows yours below the list).
func TestLeaderboardBeyondTop100(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 105)
	ctx := context.Background()
	if _, err := s.db.Exec("UPDATE users SET rating = 2000 - 5 * id, rated_games = 1"); err != nil {
		t.Fatal(err)
	}
	top, err := s.Leaderboard(ctx, 100)
	if err != nil || len(top) != 100 {
		t.Fatalf("Leaderboard(100) = %d rows, %v", len(top), err)
	}
	for i, st := range top {
		if st.Rank != i+1 || st.User != int64(i+1) {
			t.Fatalf("Leaderboard(100)[%d] = %+v, want user %d at rank %d", i, st, i+1, i+1)
		}
	}
	st, err := s.StandingOf(ctx, 105)
	if err != nil || st.Rank != 105 || st.Rating != 1475 {
		t.Errorf("StandingOf(105) = %+v, %v; want rank 105 at 1475", st, err)
	}
}
