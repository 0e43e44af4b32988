package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"satranc/engine/chips"
	"satranc/engine/fairplay"
	"satranc/engine/game"
	"satranc/engine/play"
)

// standing is everything a game can change for a player.
type standing struct {
	balance             int64
	rating, rated, xp   int
	wins, draws, losses int
}

func standingOf(t *testing.T, s *Store, user int64) standing {
	t.Helper()
	var st standing
	st.rating, st.rated, st.xp = rating(t, s, user)
	bal, err := s.Balance(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := s.Stats(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	st.balance, st.wins, st.draws, st.losses = bal, stats.Wins, stats.Draws, stats.Losses
	return st
}

// pool is the house's and the sink's balances and the number of ledger
// rows.
type pool struct{ house, sink, rows int64 }

func poolOf(t *testing.T, s *Store) pool {
	t.Helper()
	var rows int64
	if err := s.db.Get(&rows, "SELECT COUNT(*) FROM ledger"); err != nil {
		t.Fatal(err)
	}
	return pool{accountBalance(t, s, chips.HouseAccount), accountBalance(t, s, chips.SinkAccount), rows}
}

// TestVoidGameRestores plays a staked, rated lounge game to its
// settlement, voids it, and checks that every balance (the players', the
// house's, the sink's, the escrow's), every rating, rated-game count, XP
// and win/draw/loss count is what it was before the game; that the ledger
// still adds up; and that a second void is refused and changes nothing.
func TestVoidGameRestores(t *testing.T) {
	alice, bob, hard := game.Human(1), game.Human(2), game.Bot(game.Hard)
	tests := []struct {
		name         string
		white, black game.Seat
		stake        int64
		result       game.Result
	}{
		{"white wins Kahvehane", alice, bob, 500, game.WhiteWins},
		{"black wins Kapalıçarşı", alice, bob, 2500, game.BlackWins},
		{"draw", alice, bob, 500, game.Draw},
		{"beats a bot", hard, alice, 500, game.BlackWins},
		{"loses to a bot", alice, hard, 2500, game.BlackWins},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s, _ := mustOpen(t)
			mustUsers(t, s, 2)
			fund(t, s, 1, 30000)
			fund(t, s, 2, 30000)
			// An earlier game, so that the players do not start from the
			// defaults.
			id, _ := lounge(t, s, alice, bob, 500, gameT0)
			finish(t, s, id, game.BlackWins, gameT0)

			before := []standing{standingOf(t, s, 1), standingOf(t, s, 2)}
			pBefore := poolOf(t, s)
			at := gameT0.Add(time.Hour)
			id, _ = lounge(t, s, tc.white, tc.black, tc.stake, at)
			finish(t, s, id, tc.result, at)
			if standingOf(t, s, 1) == before[0] {
				t.Fatal("the game changed nothing for alice")
			}
			afterGame := poolOf(t, s)

			s.Now = func() time.Time { return at.Add(time.Hour) }
			if err := s.VoidGame(ctx, id, s.Now()); err != nil {
				t.Fatalf("VoidGame(%d) = %v", id, err)
			}
			for i, want := range before {
				if got := standingOf(t, s, int64(i+1)); got != want {
					t.Errorf("user %d after the void: %+v, want %+v as before the game", i+1, got, want)
				}
			}
			p := poolOf(t, s)
			if p.house != pBefore.house || p.sink != pBefore.sink {
				t.Errorf("house %d, sink %d after the void, want %d, %d", p.house, p.sink, pBefore.house, pBefore.sink)
			}
			if got := accountBalance(t, s, chips.EscrowAccount(id)); got != 0 {
				t.Errorf("escrow %d after the void", got)
			}
			wantBalances(t, s, nil) // conservation, and balances agree with the ledger
			if p.rows < afterGame.rows {
				t.Errorf("the ledger lost rows: %d, had %d", p.rows, afterGame.rows)
			}
			g, err := s.AdminGame(ctx, id)
			if err != nil || !g.Voided() || !g.VoidedAt.Equal(at.Add(time.Hour)) {
				t.Errorf("AdminGame(%d) = %+v, %v, want voided at %v", id, g, err, at.Add(time.Hour))
			}
			if rec, err := s.Game(ctx, id); err != nil || !rec.VoidedAt.Equal(at.Add(time.Hour)) {
				t.Errorf("Game(%d).VoidedAt = %v, %v, want %v", id, rec.VoidedAt, err, at.Add(time.Hour))
			}
			// The rating history of each player of the game ends at the
			// current rating.
			for _, seat := range []game.Seat{tc.white, tc.black} {
				if !seat.IsHuman() {
					continue
				}
				h, err := s.RatingHistory(ctx, seat.User)
				if err != nil {
					t.Fatal(err)
				}
				if last := h[len(h)-1]; last.After != before[seat.User-1].rating {
					t.Errorf("user %d: history ends at %d, want %d", seat.User, last.After, before[seat.User-1].rating)
				}
			}

			err = s.VoidGame(ctx, id, s.Now())
			if !errors.Is(err, fairplay.ErrAlreadyVoided) {
				t.Errorf("second VoidGame = %v, want ErrAlreadyVoided", err)
			}
			if got := poolOf(t, s); got != p {
				t.Errorf("a refused void changed the ledger: %+v, was %+v", got, p)
			}
			for i, want := range before {
				if got := standingOf(t, s, int64(i+1)); got != want {
					t.Errorf("user %d after a refused void: %+v, want %+v", i+1, got, want)
				}
			}
		})
	}
}

// TestVoidGameLaterGames: with a later game between the same players, the
// void takes back only the voided game's own rating change (the rule in
// engine/fairplay), and the chips as before.
func TestVoidGameLaterGames(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	fund(t, s, 1, 30000)
	fund(t, s, 2, 30000)
	alice, bob := game.Human(1), game.Human(2)
	first, _ := lounge(t, s, alice, bob, 500, gameT0)
	finish(t, s, first, game.WhiteWins, gameT0)
	r1, _, _ := rating(t, s, 1)
	later, _ := lounge(t, s, bob, alice, 500, gameT0.Add(time.Minute))
	finish(t, s, later, game.WhiteWins, gameT0.Add(time.Minute))
	a2, rated, _ := rating(t, s, 1)
	b2, _, _ := rating(t, s, 2)

	if err := s.VoidGame(ctx, first, s.Now()); err != nil {
		t.Fatal(err)
	}
	gain := r1 - 1200 // alice's change in the voided game; bob's is −gain at K = 40
	if a, n, _ := rating(t, s, 1); a != a2-gain || n != rated-1 {
		t.Errorf("alice %d after %d rated games, want %d after %d", a, n, a2-gain, rated-1)
	}
	if b, _, _ := rating(t, s, 2); b != b2+gain {
		t.Errorf("bob %d, want %d", b, b2+gain)
	}
	// Chips: the voided game is as if drawn, the later one stands (bob
	// won it: +500 − 50 fee).
	wantBalances(t, s, map[int64]int64{1: 30000 - 500, 2: 30000 + 450})
}

// TestVoidGameRefused: a missing, running or aborted game is not voided;
// nothing changes. (Spent winnings do not refuse a void: see
// TestVoidGameSpentWinnings.)
func TestVoidGameRefused(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	fund(t, s, 1, 30000)
	fund(t, s, 2, 30000)
	alice, bob := game.Human(1), game.Human(2)
	if err := s.VoidGame(ctx, 999, s.Now()); !errors.Is(err, ErrNotFound) || !errors.Is(err, play.ErrNotFound) {
		t.Errorf("VoidGame(missing) = %v, want ErrNotFound", err)
	}
	running, _ := lounge(t, s, alice, bob, 500, gameT0)
	if err := s.VoidGame(ctx, running, s.Now()); !errors.Is(err, fairplay.ErrNotVoidable) {
		t.Errorf("VoidGame(running) = %v, want ErrNotVoidable", err)
	}
	abort(t, s, running, gameT0)
	if err := s.VoidGame(ctx, running, s.Now()); !errors.Is(err, fairplay.ErrNotVoidable) {
		t.Errorf("VoidGame(aborted) = %v, want ErrNotVoidable", err)
	}
}
