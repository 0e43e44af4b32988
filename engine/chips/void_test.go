package chips

import (
	"errors"
	"maps"
	"testing"

	"satranc/engine/game"
)

// TestVoid plays staked games to their settlement in a book, voids them,
// and checks that every account stands where it stood before the stakes
// were held, whoever won, and that a second void is refused.
func TestVoid(t *testing.T) {
	alice, bob, hard := game.Human(1), game.Human(2), game.Bot(game.Hard)
	tests := []struct {
		name         string
		white, black game.Seat
		result       game.Result
		aborted, vip bool
		undoes       bool // the void has entries to post
	}{
		{"white wins", alice, bob, game.WhiteWins, false, false, true},
		{"black wins, VIP fee", alice, bob, game.BlackWins, false, true, true},
		{"bot wins", alice, hard, game.BlackWins, false, false, true},
		{"beats the bot", hard, bob, game.BlackWins, false, false, true},
		{"draw", alice, bob, game.Draw, false, false, false},
		{"aborted", alice, bob, game.WhiteWins, true, false, false},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := int64(i + 1)
			b := NewBook()
			for _, u := range []int64{1, 2} {
				if err := b.Apply([]Entry{Grant(u, 20000, ReasonSignup)}); err != nil {
					t.Fatal(err)
				}
			}
			before := maps.Clone(b.bal)
			hold, err := Hold(id, tc.white, tc.black, 2500)
			if err != nil {
				t.Fatal(err)
			}
			settle, err := Settle(Settlement{Game: id, White: tc.white, Black: tc.black, Stake: 2500,
				Result: tc.result, Aborted: tc.aborted, WinnerVIP: tc.vip})
			if err != nil {
				t.Fatal(err)
			}
			posted := append(hold, settle...)
			if err := b.Apply(posted); err != nil {
				t.Fatal(err)
			}
			void, err := Void(id, posted)
			if err != nil {
				t.Fatalf("Void: %v", err)
			}
			if (len(void) > 0) != tc.undoes {
				t.Fatalf("Void = %v, want entries: %v", void, tc.undoes)
			}
			if err := b.Apply(void); err != nil {
				t.Fatalf("Apply(void): %v", err)
			}
			if !maps.Equal(b.bal, before) {
				t.Errorf("after the void the book is %v, want %v as before the game", b.bal, before)
			}
			if !b.Totals().Conserved() {
				t.Errorf("Totals %+v not conserved", b.Totals())
			}
			if tc.undoes {
				if _, err := Void(id, append(posted, void...)); !errors.Is(err, ErrInvalid) {
					t.Errorf("a second Void: error %v, want ErrInvalid", err)
				}
			}
		})
	}
}

func TestVoidRefusesUnsettled(t *testing.T) {
	hold, _ := Hold(5, game.Human(1), game.Human(2), 500)
	if _, err := Void(5, hold); !errors.Is(err, ErrInvalid) {
		t.Errorf("Void of a game still held: error %v, want ErrInvalid", err)
	}
	if _, err := Void(6, hold); !errors.Is(err, ErrInvalid) {
		t.Errorf("Void with another game's entries: error %v, want ErrInvalid", err)
	}
}

// TestVoidHolding: the winner of a 2,500 game (payout 4,750, net gain
// 2,250) holds less than the payout when it is voided. Whatever they hold,
// the book applies the entries (nobody below zero), the loser and the bot's
// house get their stakes back, the winner ends at max(0, held − 2,250), the
// house is out only the rest, and chips are conserved.
func TestVoidHolding(t *testing.T) {
	const stake, gain = 2500, 2250
	for _, bot := range []bool{false, true} {
		for _, holds := range []int64{0, 1, 1000, gain, gain + 1, 4749, 4750, 9000} {
			id := int64(7)
			b := NewBook()
			for _, u := range []int64{1, 2} {
				if err := b.Apply([]Entry{Grant(u, 20000, ReasonSignup)}); err != nil {
					t.Fatal(err)
				}
			}
			opponent := game.Human(2)
			if bot {
				opponent = game.Bot(game.Hard)
			}
			hold, _ := Hold(id, game.Human(1), opponent, stake)
			settle, err := Settle(Settlement{Game: id, White: game.Human(1), Black: opponent, Stake: stake, Result: game.WhiteWins})
			if err != nil {
				t.Fatal(err)
			}
			posted := append(hold, settle...)
			if err := b.Apply(posted); err != nil {
				t.Fatal(err)
			}
			// The winner spends down to holds (the sink stands for a loss).
			spent := b.Balance(UserAccount(1)) - holds
			if err := b.Apply([]Entry{{From: UserAccount(1), To: SinkAccount, Amount: spent, Reason: "spent"}}); err != nil {
				t.Fatal(err)
			}
			loser, house := b.Balance(UserAccount(2)), b.Balance(HouseAccount)
			void, err := VoidHolding(id, posted, func(a Account) int64 { return b.Balance(a) })
			if err != nil {
				t.Fatalf("bot %v, holds %d: VoidHolding: %v", bot, holds, err)
			}
			if err := b.Apply(void); err != nil {
				t.Fatalf("bot %v, holds %d: Apply(%v): %v", bot, holds, void, err)
			}
			if got, want := b.Balance(UserAccount(1)), max(0, holds-gain); got != want {
				t.Errorf("bot %v, holds %d: winner %d after the void, want %d", bot, holds, got, want)
			}
			wantHouse := house - 250 - max(0, gain-holds)
			if bot {
				wantHouse += stake
			} else if got := b.Balance(UserAccount(2)); got != loser+stake {
				t.Errorf("holds %d: loser %d after the void, want %d", holds, got, loser+stake)
			}
			if got := b.Balance(HouseAccount); got != wantHouse {
				t.Errorf("bot %v, holds %d: house %d, want %d", bot, holds, got, wantHouse)
			}
			if got := b.Balance(EscrowAccount(id)); got != 0 {
				t.Errorf("bot %v, holds %d: escrow %d", bot, holds, got)
			}
			if !b.Totals().Conserved() {
				t.Errorf("bot %v, holds %d: Totals %+v not conserved", bot, holds, b.Totals())
			}
			if _, err := VoidHolding(id, append(posted, void...), nil); !errors.Is(err, ErrInvalid) {
				t.Errorf("bot %v, holds %d: a second void: error %v, want ErrInvalid", bot, holds, err)
			}
		}
	}
}
