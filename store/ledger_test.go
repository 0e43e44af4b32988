package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/chips"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// fund issues amount chips to user as an administrator's grant.
func fund(t *testing.T, s *Store, user, amount int64) {
	t.Helper()
	tx, err := s.db.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := post(context.Background(), tx, s.now(), chips.Grant(user, amount, chips.ReasonGrant)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// wantBalances checks users' balances, then the conservation of chips and
// that the balances agree with the ledger.
func wantBalances(t *testing.T, s *Store, want map[int64]int64) {
	t.Helper()
	ctx := context.Background()
	for user, w := range want {
		if got, err := s.Balance(ctx, user); err != nil || got != w {
			t.Errorf("Balance(%d) = %d, %v, want %d", user, got, err, w)
		}
	}
	tot, err := s.LedgerTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !tot.Conserved() {
		t.Errorf("chips not conserved: %+v", tot)
	}
}

func accountBalance(t *testing.T, s *Store, a chips.Account) int64 {
	t.Helper()
	n, err := balanceOf(context.Background(), s.db, a)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

var fivePlusZero = clock.MustParse("5+0")

// lounge creates a lounge game at stake between white and black at at.
func lounge(t *testing.T, s *Store, white, black game.Seat, stake int64, at time.Time) (int64, bool) {
	t.Helper()
	id, unstaked, err := s.CreatePublicGame(context.Background(), play.GameRecord{Kind: play.Lounge, White: white, Black: black,
		Control: fivePlusZero, Status: game.Active, Stake: stake, CreatedAt: at, StartedAt: at})
	if err != nil {
		t.Fatalf("CreatePublicGame(lounge %d, %v v %v) = %v", stake, white, black, err)
	}
	return id, unstaked
}

func finish(t *testing.T, s *Store, id int64, r game.Result, at time.Time) {
	t.Helper()
	end := play.Ending{Status: game.Finished, Outcome: game.Outcome{Result: r, Reason: game.Resignation}, At: at}
	if r == game.Draw {
		end.Outcome.Reason = game.Agreement
	}
	if r == game.WhiteWins {
		end.Outcome.Side = chess.Black
	}
	if err := s.FinishGame(context.Background(), id, end); err != nil {
		t.Fatalf("FinishGame(%d, %v) = %v", id, r, err)
	}
}

func abort(t *testing.T, s *Store, id int64, at time.Time) {
	t.Helper()
	end := play.Ending{Status: game.Aborted, Outcome: game.Outcome{Result: game.BlackWins, Reason: game.Abort}, At: at}
	if err := s.FinishGame(context.Background(), id, end); err != nil {
		t.Fatalf("abort game %d: %v", id, err)
	}
}

// TestLoungeSettlement plays lounge games between two people and checks
// both balances and the house to the chip (SPEC section 5).
func TestLoungeSettlement(t *testing.T) {
	alice, bob := game.Human(1), game.Human(2)
	tests := []struct {
		name       string
		bobVIP     bool
		stake      int64
		end        func(t *testing.T, s *Store, id int64)
		alice, bob int64 // balances after, from 50,000 each
		house      int64
	}{
		{"white wins Kahvehane", false, 500, func(t *testing.T, s *Store, id int64) { finish(t, s, id, game.WhiteWins, gameT0) },
			50000 + 500 - 50, 49500, 50},
		{"VIP black wins pays 3%", true, 2500, func(t *testing.T, s *Store, id int64) { finish(t, s, id, game.BlackWins, gameT0) },
			47500, 50000 + 2500 - 150, 150},
		{"VIP loser: winner's status decides", true, 2500, func(t *testing.T, s *Store, id int64) { finish(t, s, id, game.WhiteWins, gameT0) },
			50000 + 2500 - 250, 47500, 250},
		{"draw refunds", false, 500, func(t *testing.T, s *Store, id int64) { finish(t, s, id, game.Draw, gameT0) },
			50000, 50000, 0},
		{"abort refunds", false, 2500, func(t *testing.T, s *Store, id int64) { abort(t, s, id, gameT0) },
			50000, 50000, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := mustOpen(t)
			mustUsers(t, s, 2)
			fund(t, s, 1, 50000)
			fund(t, s, 2, 50000)
			if tc.bobVIP {
				if _, err := s.db.Exec("UPDATE users SET vip = TRUE WHERE id = 2"); err != nil {
					t.Fatal(err)
				}
			}
			id, unstaked := lounge(t, s, alice, bob, tc.stake, gameT0)
			if unstaked {
				t.Fatal("first game unstaked")
			}
			wantBalances(t, s, map[int64]int64{1: 50000 - tc.stake, 2: 50000 - tc.stake})
			if got := accountBalance(t, s, chips.EscrowAccount(id)); got != 2*tc.stake {
				t.Errorf("escrow %d, want %d", got, 2*tc.stake)
			}
			tc.end(t, s, id)
			wantBalances(t, s, map[int64]int64{1: tc.alice, 2: tc.bob})
			if got := accountBalance(t, s, chips.HouseAccount); got != tc.house {
				t.Errorf("house %d, want %d", got, tc.house)
			}
			if got := accountBalance(t, s, chips.EscrowAccount(id)); got != 0 {
				t.Errorf("escrow %d after settlement", got)
			}

			// Settling twice changes nothing.
			if ok, err := s.SettleGame(context.Background(), id); ok || err != nil {
				t.Errorf("SettleGame again = %v, %v, want false, nil", ok, err)
			}
			if err := s.FinishGame(context.Background(), id, play.Ending{Status: game.Finished,
				Outcome: game.Outcome{Result: game.BlackWins, Reason: game.Resignation}, At: gameT0}); err == nil {
				t.Error("FinishGame of a finished game succeeded")
			}
			tx, _ := s.db.Beginx()
			if err := settleGame(context.Background(), tx, id); err != nil {
				t.Errorf("settleGame again: %v", err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			wantBalances(t, s, map[int64]int64{1: tc.alice, 2: tc.bob})
		})
	}
}

// TestBotLounge: the house covers the bot's stake; what a bot wins goes to
// the sink.
func TestBotLounge(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 1)
	fund(t, s, 1, 5000)
	alice, easy := game.Human(1), game.Bot(game.Easy)

	id, _ := lounge(t, s, alice, easy, 500, gameT0)
	if got := accountBalance(t, s, chips.HouseAccount); got != -500 {
		t.Errorf("house %d after covering the bot, want -500", got)
	}
	finish(t, s, id, game.WhiteWins, gameT0)
	wantBalances(t, s, map[int64]int64{1: 5450})
	if got := accountBalance(t, s, chips.HouseAccount); got != -450 {
		t.Errorf("house %d, want -500 + 50 fee", got)
	}

	id, _ = lounge(t, s, easy, alice, 500, gameT0.Add(time.Minute))
	finish(t, s, id, game.WhiteWins, gameT0.Add(time.Minute))
	wantBalances(t, s, map[int64]int64{1: 4950})
	if house, sink := accountBalance(t, s, chips.HouseAccount), accountBalance(t, s, chips.SinkAccount); house != -900 || sink != 950 {
		t.Errorf("house %d, sink %d, want -900, 950", house, sink)
	}

	// 4950 < 10 × 500: turned away, and nothing is written.
	_, _, err := s.CreatePublicGame(context.Background(), play.GameRecord{Kind: play.Lounge, White: alice, Black: easy,
		Control: fivePlusZero, Status: game.Active, Stake: 500, CreatedAt: gameT0, StartedAt: gameT0})
	if !errors.Is(err, chips.ErrInsufficientBalance) {
		t.Errorf("CreatePublicGame with 4,950 chips: %v, want ErrInsufficientBalance", err)
	}
	wantBalances(t, s, map[int64]int64{1: 4950})
}

func TestLoungeEligibility(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	fund(t, s, 1, 1_000_000)
	fund(t, s, 2, 1_000_000)
	create := func(stake int64) error {
		_, _, err := s.CreatePublicGame(context.Background(), play.GameRecord{Kind: play.Lounge, White: game.Human(1),
			Black: game.Human(2), Control: fivePlusZero, Status: game.Active, Stake: stake, CreatedAt: gameT0, StartedAt: gameT0})
		return err
	}
	if err := create(50000); !errors.Is(err, chips.ErrReserved) {
		t.Errorf("Has Oda for two men: %v, want ErrReserved", err)
	}
	if _, err := s.db.Exec("UPDATE users SET gender = 'female' WHERE id = 1; UPDATE users SET vip = TRUE WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	if err := create(50000); err != nil {
		t.Errorf("Has Oda for a woman and a VIP: %v", err)
	}
	if err := create(1234); !errors.Is(err, chips.ErrNoLounge) {
		t.Errorf("stake 1234: %v, want ErrNoLounge", err)
	}
	wantBalances(t, s, map[int64]int64{1: 950000, 2: 950000})
}

// TestSameOpponent: the 4th and later lounge games between the same two
// accounts within 24 hours are unstaked: nothing held, no Elo.
func TestSameOpponent(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 3)
	for u := int64(1); u <= 3; u++ {
		fund(t, s, u, 100000)
	}
	alice, bob, carol := game.Human(1), game.Human(2), game.Human(3)
	at := gameT0
	for i := range 3 {
		white, black := alice, bob
		if i == 1 {
			white, black = bob, alice // either colour counts
		}
		id, unstaked := lounge(t, s, white, black, 500, at)
		if unstaked {
			t.Fatalf("game %d unstaked", i+1)
		}
		finish(t, s, id, game.Draw, at)
		at = at.Add(time.Hour)
	}
	id, unstaked := lounge(t, s, alice, bob, 500, at)
	if !unstaked {
		t.Fatal("4th game within 24 h is staked")
	}
	wantBalances(t, s, map[int64]int64{1: 100000, 2: 100000})
	rec, err := s.Game(context.Background(), id)
	if err != nil || !rec.Unstaked || rec.Stake != 500 {
		t.Errorf("stored: unstaked %v, stake %d, %v", rec.Unstaked, rec.Stake, err)
	}
	var ratingBefore int
	_ = s.db.Get(&ratingBefore, "SELECT rating FROM users WHERE id = 1")
	finish(t, s, id, game.WhiteWins, at)
	wantBalances(t, s, map[int64]int64{1: 100000, 2: 100000})
	var ratingAfter int
	_ = s.db.Get(&ratingAfter, "SELECT rating FROM users WHERE id = 1")
	if ratingAfter != ratingBefore {
		t.Errorf("unstaked game changed the rating %d → %d", ratingBefore, ratingAfter)
	}
	// Another pair is not affected.
	if _, unstaked := lounge(t, s, alice, carol, 500, at); unstaked {
		t.Error("a game against someone else is unstaked")
	}
	// The window slides: 25 hours after the first game only the 3rd and
	// the (unstaked) 4th are within 24 hours, the 4th counting too.
	if _, unstaked := lounge(t, s, bob, alice, 500, gameT0.Add(25*time.Hour+time.Millisecond)); unstaked {
		t.Error("a game with two others in the last 24 h is unstaked")
	}
}

func TestSignupGrantAndDailyBonus(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	u := mustCreateUser(t, s, "ayşe")
	wantBalances(t, s, map[int64]int64{u.ID: chips.DefaultSignupGrant})
	if ok, err := s.GrantSignup(ctx, u.ID, 5000); ok || err != nil {
		t.Errorf("GrantSignup again = %v, %v, want false, nil", ok, err)
	}
	day := time.Date(2026, 3, 1, 23, 59, 0, 0, time.UTC)
	if ok, err := s.ClaimDailyBonus(ctx, u.ID, day); !ok || err != nil {
		t.Errorf("ClaimDailyBonus = %v, %v, want true", ok, err)
	}
	if ok, err := s.ClaimDailyBonus(ctx, u.ID, day.Add(-23*time.Hour)); ok || err != nil {
		t.Errorf("ClaimDailyBonus the same day = %v, %v, want false", ok, err)
	}
	wantBalances(t, s, map[int64]int64{u.ID: 6000})
	if ok, err := s.ClaimDailyBonus(ctx, u.ID, day.Add(2*time.Minute)); !ok || err != nil {
		t.Errorf("ClaimDailyBonus next day = %v, %v, want true", ok, err)
	}
	wantBalances(t, s, map[int64]int64{u.ID: 7000})
	if _, err := s.ClaimDailyBonus(ctx, 999, day); !errors.Is(err, ErrNotFound) {
		t.Errorf("ClaimDailyBonus for no user: %v, want ErrNotFound", err)
	}
	if _, err := s.Balance(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("Balance of no user: %v, want ErrNotFound", err)
	}
}

func TestLedgerAppendOnly(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 1)
	fund(t, s, 1, 100)
	if _, err := s.db.Exec("UPDATE ledger SET amount = 1000000"); err == nil {
		t.Error("UPDATE ledger succeeded")
	}
	if _, err := s.db.Exec("DELETE FROM ledger"); err == nil {
		t.Error("DELETE FROM ledger succeeded")
	}
	wantBalances(t, s, map[int64]int64{1: 100})
}
