package chips

import (
	"errors"
	"slices"
	"testing"

	"satranc/engine/game"
)

func TestLounges(t *testing.T) {
	want := []struct {
		name  string
		stake int64
	}{{"Kahvehane", 500}, {"Kapalıçarşı", 2500}, {"Saray Bahçesi", 10000}, {"Has Oda", 50000}, {"Divan-ı Hümayun", 250000}}
	if len(Lounges) != len(want) {
		t.Fatalf("%d lounges, want %d", len(Lounges), len(want))
	}
	for i, w := range want {
		if l := Lounges[i]; l.Name != w.name || l.Stake != w.stake || l.Requirement() != 10*w.stake || l.Reserved != (w.name == "Has Oda") {
			t.Errorf("Lounges[%d] = %+v, want %s at %d", i, l, w.name, w.stake)
		}
		l, err := LoungeByStake(w.stake)
		if err != nil || l.Name != w.name {
			t.Errorf("LoungeByStake(%d) = %v, %v", w.stake, l.Name, err)
		}
	}
	if _, err := LoungeByStake(1000); !errors.Is(err, ErrNoLounge) {
		t.Errorf("LoungeByStake(1000) error = %v, want ErrNoLounge", err)
	}
}

func TestCanSit(t *testing.T) {
	kahve, _ := LoungeBySlug("kahvehane")
	hasOda, _ := LoungeBySlug("has-oda")
	tests := []struct {
		name   string
		lounge Lounge
		p      Player
		want   Refusal
	}{
		{"exactly 10x", kahve, Player{Balance: 5000}, Allowed},
		{"one chip short", kahve, Player{Balance: 4999}, TooFewChips},
		{"has oda female", hasOda, Player{Balance: 500000, Female: true}, Allowed},
		{"has oda vip", hasOda, Player{Balance: 500000, VIP: true}, Allowed},
		{"has oda neither", hasOda, Player{Balance: 10000000}, NotReserved},
		{"has oda female poor", hasOda, Player{Balance: 499999, Female: true}, TooFewChips},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.lounge.CanSit(tc.p)
			if got != tc.want {
				t.Errorf("%s.CanSit(%+v) = %v, want %v", tc.lounge.Name, tc.p, got, tc.want)
			}
			if (got.Err() == nil) != (got == Allowed) {
				t.Errorf("%v.Err() = %v", got, got.Err())
			}
		})
	}
}

func TestFee(t *testing.T) {
	tests := []struct {
		pot  int64
		vip  bool
		want int64
	}{
		{1000, false, 50}, {1000, true, 30},
		{5000, false, 250}, {5000, true, 150},
		{500000, false, 25000}, {500000, true, 15000},
		// Rounded down: the winner keeps the fraction.
		{19, false, 0}, {99, true, 2}, {101, false, 5},
	}
	for _, tc := range tests {
		if got := Fee(tc.pot, tc.vip); got != tc.want {
			t.Errorf("Fee(%d, %v) = %d, want %d", tc.pot, tc.vip, got, tc.want)
		}
	}
}

func TestSettle(t *testing.T) {
	alice, bob, easy := game.Human(1), game.Human(2), game.Bot(game.Easy)
	esc := EscrowAccount(7)
	tests := []struct {
		name string
		s    Settlement
		want []Entry
	}{
		{"white wins", Settlement{Game: 7, White: alice, Black: bob, Stake: 500, Result: game.WhiteWins}, []Entry{
			{esc, UserAccount(1), 950, ReasonPayout, 7}, {esc, HouseAccount, 50, ReasonFee, 7}}},
		{"vip black wins", Settlement{Game: 7, White: alice, Black: bob, Stake: 2500, Result: game.BlackWins, WinnerVIP: true}, []Entry{
			{esc, UserAccount(2), 4850, ReasonPayout, 7}, {esc, HouseAccount, 150, ReasonFee, 7}}},
		{"draw", Settlement{Game: 7, White: alice, Black: bob, Stake: 500, Result: game.Draw}, []Entry{
			{esc, UserAccount(1), 500, ReasonRefund, 7}, {esc, UserAccount(2), 500, ReasonRefund, 7}}},
		{"aborted", Settlement{Game: 7, White: alice, Black: bob, Stake: 500, Result: game.WhiteWins, Aborted: true}, []Entry{
			{esc, UserAccount(1), 500, ReasonRefund, 7}, {esc, UserAccount(2), 500, ReasonRefund, 7}}},
		{"beats bot", Settlement{Game: 7, White: alice, Black: easy, Stake: 500, Result: game.WhiteWins}, []Entry{
			{esc, UserAccount(1), 950, ReasonPayout, 7}, {esc, HouseAccount, 50, ReasonFee, 7}}},
		{"bot wins", Settlement{Game: 7, White: alice, Black: easy, Stake: 500, Result: game.BlackWins}, []Entry{
			{esc, SinkAccount, 950, ReasonBotWin, 7}, {esc, HouseAccount, 50, ReasonFee, 7}}},
		{"draw with bot", Settlement{Game: 7, White: easy, Black: alice, Stake: 500, Result: game.Draw}, []Entry{
			{esc, HouseAccount, 500, ReasonRefund, 7}, {esc, UserAccount(1), 500, ReasonRefund, 7}}},
		{"unstaked", Settlement{Game: 7, White: alice, Black: bob, Stake: 0, Result: game.WhiteWins}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Settle(tc.s)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("Settle(%+v) = %v, %v, want %v", tc.s, got, err, tc.want)
			}
		})
	}
	if _, err := Settle(Settlement{Game: 7, White: alice, Black: bob, Stake: 500}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Settle without result: error %v, want ErrInvalid", err)
	}
}

func TestHold(t *testing.T) {
	got, err := Hold(3, game.Bot(game.Hard), game.Human(4), 10000)
	want := []Entry{{HouseAccount, EscrowAccount(3), 10000, ReasonStake, 3}, {UserAccount(4), EscrowAccount(3), 10000, ReasonStake, 3}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Hold = %v, %v, want %v", got, err, want)
	}
	if _, err := Hold(3, game.Seat{}, game.Human(4), 500); !errors.Is(err, ErrInvalid) {
		t.Errorf("Hold with an empty seat: error %v, want ErrInvalid", err)
	}
}

func TestBookAllOrNothing(t *testing.T) {
	b := NewBook()
	if err := b.Apply([]Entry{Grant(1, 600, ReasonSignup)}); err != nil {
		t.Fatal(err)
	}
	hold, _ := Hold(9, game.Human(1), game.Human(2), 500)
	if err := b.Apply(hold); !errors.Is(err, ErrInsufficientBalance) {
		t.Fatalf("Apply(hold) with user 2 broke: %v, want ErrInsufficientBalance", err)
	}
	if b.Balance(UserAccount(1)) != 600 || b.Balance(EscrowAccount(9)) != 0 {
		t.Errorf("a refused Apply changed the book: user 1 %d, escrow %d", b.Balance(UserAccount(1)), b.Balance(EscrowAccount(9)))
	}
	if !b.Totals().Conserved() {
		t.Errorf("Totals %+v not conserved", b.Totals())
	}
}
