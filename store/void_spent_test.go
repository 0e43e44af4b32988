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

// spend takes chips from user's balance until it holds left, as if lost
// outside any game (the sink stands for wherever they went): the lounges'
// 10 × stake rule keeps a player who loses there from getting below
// 4,500, so this is how a test empties a balance.
func spend(t *testing.T, s *Store, user, left int64) {
	t.Helper()
	ctx := context.Background()
	bal, err := s.Balance(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if bal <= left {
		t.Fatalf("user %d holds %d, cannot spend down to %d", user, bal, left)
	}
	tx, err := s.db.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	e := chips.Entry{From: chips.UserAccount(user), To: chips.SinkAccount, Amount: bal - left, Reason: "test_loss"}
	if err := post(ctx, tx, s.now(), e); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestVoidGameSpentWinnings: alice wins a Kapalıçarşı game (stake 2,500,
// payout 4,750, fee 250: a net gain of 2,250), then loses or spends part
// or all of it, and the game is voided. SPEC section 10 says the void
// reverses the chip effects, so it is not refused: alice gives back what
// she holds, up to the payout, and ends at max(0, held − 2,250); her
// opponent gets the whole stake back; the house returns the fee and is out
// only what alice can no longer return. Ratings, XP and the results are
// restored as for any void, chips are conserved, and a second void is
// refused and changes nothing.
func TestVoidGameSpentWinnings(t *testing.T) {
	const stake, payout, fee = 2500, 4750, 250
	const gain = payout - stake
	alice, bob, hard := game.Human(1), game.Human(2), game.Bot(game.Hard)
	tests := []struct {
		name     string
		opponent game.Seat
		fund     int64
		spend    func(t *testing.T, s *Store, at time.Time)
		holds    int64 // alice's balance when the game is voided
	}{
		{"holds it all", bob, 25000, func(*testing.T, *Store, time.Time) {}, 25000 + gain},
		{"lost part in Kahvehane", bob, 25350, func(t *testing.T, s *Store, at time.Time) {
			// 27,600 after the win; 46 losses of 500 to a bot, the last
			// from 5,100 (she may sit with 10 × 500), leave 4,600 < 4,750.
			for i := range 46 {
				when := at.Add(time.Duration(i+1) * time.Minute)
				id, _ := lounge(t, s, alice, hard, 500, when)
				finish(t, s, id, game.BlackWins, when)
			}
		}, 4600},
		{"kept less than the net gain", bob, 25000, func(t *testing.T, s *Store, _ time.Time) { spend(t, s, 1, 1000) }, 1000},
		{"spent all", bob, 25000, func(t *testing.T, s *Store, _ time.Time) { spend(t, s, 1, 0) }, 0},
		{"beat a bot, spent all", hard, 25000, func(t *testing.T, s *Store, _ time.Time) { spend(t, s, 1, 0) }, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s, _ := mustOpen(t)
			mustUsers(t, s, 2)
			fund(t, s, 1, tc.fund)
			fund(t, s, 2, 30000)
			before := standingOf(t, s, 1)
			at := gameT0
			id, _ := lounge(t, s, alice, tc.opponent, stake, at)
			finish(t, s, id, game.WhiteWins, at)
			won := standingOf(t, s, 1)
			if won.balance != tc.fund+gain {
				t.Fatalf("alice holds %d after the win, want %d", won.balance, tc.fund+gain)
			}
			tc.spend(t, s, at)
			afterSpend := standingOf(t, s, 1)
			if afterSpend.balance != tc.holds {
				t.Fatalf("alice holds %d when the game is voided, want %d", afterSpend.balance, tc.holds)
			}
			bobAt := standingOf(t, s, 2)
			houseAt := accountBalance(t, s, chips.HouseAccount)

			s.Now = func() time.Time { return at.Add(24 * time.Hour) }
			if err := s.VoidGame(ctx, id, s.Now()); err != nil {
				t.Fatalf("VoidGame(%d) = %v", id, err)
			}

			got := standingOf(t, s, 1)
			if want := max(0, tc.holds-gain); got.balance != want {
				t.Errorf("alice holds %d after the void, want %d", got.balance, want)
			}
			// Everything but the chips is as if the won game had not been
			// played (the later lounge games stand).
			want := afterSpend
			want.balance = got.balance
			want.rating += before.rating - won.rating
			want.rated--
			want.xp -= won.xp - before.xp
			want.wins--
			if got != want {
				t.Errorf("alice after the void: %+v, want %+v", got, want)
			}
			house := houseAt - fee - max(0, gain-tc.holds)
			if tc.opponent == bob {
				if b := standingOf(t, s, 2).balance; b != bobAt.balance+stake {
					t.Errorf("bob holds %d after the void, want %d (his stake back)", b, bobAt.balance+stake)
				}
			} else {
				house += stake // the bot's stake, which the house covered
			}
			if h := accountBalance(t, s, chips.HouseAccount); h != house {
				t.Errorf("house %d after the void, want %d", h, house)
			}
			if e := accountBalance(t, s, chips.EscrowAccount(id)); e != 0 {
				t.Errorf("escrow %d after the void", e)
			}
			wantBalances(t, s, nil) // conservation, and balances agree with the ledger

			p := poolOf(t, s)
			if err := s.VoidGame(ctx, id, s.Now()); !errors.Is(err, fairplay.ErrAlreadyVoided) {
				t.Errorf("second VoidGame = %v, want ErrAlreadyVoided", err)
			}
			if got := poolOf(t, s); got != p {
				t.Errorf("a refused void changed the ledger: %+v, was %+v", got, p)
			}
			if again := standingOf(t, s, 1); again != got {
				t.Errorf("alice after a refused void: %+v, want %+v", again, got)
			}
		})
	}
}

// TestVoidGameQuickPlay: a Quick Play game moves no chips; its void takes
// back the ratings and XP, posts no ledger entry, and is done once.
func TestVoidGameQuickPlay(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	fund(t, s, 1, 1000)
	before := []standing{standingOf(t, s, 1), standingOf(t, s, 2)}
	id := create(t, s, play.Quick, game.Human(1), game.Human(2), gameT0)
	finish(t, s, id, game.WhiteWins, gameT0)
	spend(t, s, 1, 0) // no chips came from the game, none go back
	before[0].balance = 0
	p := poolOf(t, s)
	if err := s.VoidGame(ctx, id, s.Now()); err != nil {
		t.Fatalf("VoidGame(%d) = %v", id, err)
	}
	for i, want := range before {
		if got := standingOf(t, s, int64(i+1)); got != want {
			t.Errorf("user %d after the void: %+v, want %+v", i+1, got, want)
		}
	}
	if got := poolOf(t, s); got != p {
		t.Errorf("the void of a Quick Play game changed the ledger: %+v, was %+v", got, p)
	}
	if err := s.VoidGame(ctx, id, s.Now()); !errors.Is(err, fairplay.ErrAlreadyVoided) {
		t.Errorf("second VoidGame = %v, want ErrAlreadyVoided", err)
	}
	wantBalances(t, s, nil)
}

// TestVoidsSince lists the voids at or after a time, oldest first, with
// the times they were recorded at.
func TestVoidsSince(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	var ids []int64
	for range 3 {
		id := create(t, s, play.Quick, game.Human(1), game.Human(2), gameT0)
		finish(t, s, id, game.WhiteWins, gameT0)
		ids = append(ids, id)
	}
	at := gameT0.Add(time.Hour)
	// Voided in the other order than their times.
	for i, id := range []int64{ids[2], ids[0]} {
		if err := s.VoidGame(ctx, id, at.Add(time.Duration(1-i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.VoidsSince(ctx, at)
	want := []fairplay.Void{{Game: ids[0], At: at}, {Game: ids[2], At: at.Add(time.Minute)}}
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("VoidsSince(%v) = %v, %v; want %v", at, got, err, want)
	}
	if got, err := s.VoidsSince(ctx, at.Add(time.Second)); err != nil || len(got) != 1 || got[0].Game != ids[2] {
		t.Errorf("VoidsSince(a second later) = %v, %v; want game %d only", got, err, ids[2])
	}
}
