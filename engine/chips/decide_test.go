package chips

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"satranc/engine/game"
)

func TestDecide(t *testing.T) {
	const id = 9
	ali, veli := game.Human(1), game.Human(2)
	kah := Lounges[0].Stake // 500: a pot of 1,000, fees 50 and 30
	escrow := EscrowAccount(id)
	refund := func(to Account) Entry {
		return Entry{From: escrow, To: to, Amount: kah, Reason: ReasonRefund, Game: id}
	}
	payout := func(to Account, amount int64) Entry {
		return Entry{From: escrow, To: to, Amount: amount, Reason: ReasonPayout, Game: id}
	}
	fee := func(amount int64) Entry {
		return Entry{From: escrow, To: HouseAccount, Amount: amount, Reason: ReasonFee, Game: id}
	}
	// Two new players at 1200 (K = 40) and an established pair (K = 20).
	newW := Side{Seat: ali, Rating: 1200}
	newB := Side{Seat: veli, Rating: 1200}
	oldW := Side{Seat: ali, Rating: 1200, RatedGames: 30}
	oldB := Side{Seat: veli, Rating: 1200, RatedGames: 30}
	vipW := Side{Seat: ali, Rating: 1200, VIP: true}
	vipB := Side{Seat: veli, Rating: 1200, VIP: true}
	medium := Side{Seat: game.Bot(game.Medium)} // 1300
	hard := Side{Seat: game.Bot(game.Hard)}     // 1700

	tests := []struct {
		name string
		in   Ended
		want Decision
	}{
		// Practice and private games: experience only.
		{"casual win", Ended{Table: Casual, White: newW, Black: newB, Status: game.Finished, Result: game.WhiteWins},
			Decision{XP: []XPAward{{1, 15}, {2, 10}}}},
		{"casual draw", Ended{Table: Casual, White: newW, Black: newB, Status: game.Finished, Result: game.Draw},
			Decision{XP: []XPAward{{1, 10}, {2, 10}}}},
		{"casual loss", Ended{Table: Casual, White: newW, Black: newB, Status: game.Finished, Result: game.BlackWins},
			Decision{XP: []XPAward{{1, 10}, {2, 15}}}},
		{"practice against a bot", Ended{Table: Casual, White: newW, Black: hard, Status: game.Finished, Result: game.BlackWins},
			Decision{XP: []XPAward{{1, 10}}}},
		{"casual aborted", Ended{Table: Casual, White: newW, Black: newB, Status: game.Aborted},
			Decision{}},

		// Quick Play: rated, unstaked, no points.
		{"quick win, K=40", Ended{Table: QuickPlay, White: newW, Black: newB, Status: game.Finished, Result: game.WhiteWins},
			Decision{Rated: true, Ratings: []RatingChange{{1, 1200, 1220}, {2, 1200, 1180}}, XP: []XPAward{{1, 15}, {2, 10}}}},
		{"quick win, K=20", Ended{Table: QuickPlay, White: oldW, Black: oldB, Status: game.Finished, Result: game.WhiteWins},
			Decision{Rated: true, Ratings: []RatingChange{{1, 1200, 1210}, {2, 1200, 1190}}, XP: []XPAward{{1, 15}, {2, 10}}}},
		{"quick, 30th game K=40 and 31st K=20", Ended{Table: QuickPlay, White: Side{Seat: ali, Rating: 1200, RatedGames: 29},
			Black: oldB, Status: game.Finished, Result: game.BlackWins},
			Decision{Rated: true, Ratings: []RatingChange{{1, 1200, 1180}, {2, 1200, 1210}}, XP: []XPAward{{1, 10}, {2, 15}}}},
		{"quick draw", Ended{Table: QuickPlay, White: newW, Black: newB, Status: game.Finished, Result: game.Draw},
			Decision{Rated: true, Ratings: []RatingChange{{1, 1200, 1200}, {2, 1200, 1200}}, XP: []XPAward{{1, 10}, {2, 10}}}},
		{"quick draw, unequal", Ended{Table: QuickPlay, White: Side{Seat: ali, Rating: 1400}, Black: newB, Status: game.Finished, Result: game.Draw},
			// expected 0.76 and 0.24: 40 × ∓0.26 = ∓10.4
			Decision{Rated: true, Ratings: []RatingChange{{1, 1400, 1390}, {2, 1200, 1210}}, XP: []XPAward{{1, 10}, {2, 10}}}},
		{"quick against a bot, human wins", Ended{Table: QuickPlay, White: medium, Black: newB, Status: game.Finished, Result: game.BlackWins},
			// against the bot's 1300: expected 0.36, 40 × 0.64 = 25.6
			Decision{Rated: true, Ratings: []RatingChange{{2, 1200, 1226}}, XP: []XPAward{{2, 15}}}},
		{"quick against a bot, bot wins", Ended{Table: QuickPlay, White: newW, Black: medium, Status: game.Finished, Result: game.BlackWins},
			Decision{Rated: true, Ratings: []RatingChange{{1, 1200, 1186}}, XP: []XPAward{{1, 10}}}},
		{"quick aborted", Ended{Table: QuickPlay, White: newW, Black: newB, Status: game.Aborted},
			Decision{}},

		// Lounges: chips, Elo, points.
		{"lounge win", Ended{Table: LoungeTable, White: newW, Black: newB, Stake: kah, Status: game.Finished, Result: game.WhiteWins},
			Decision{Entries: []Entry{payout(UserAccount(1), 950), fee(50)}, Rated: true, Points: true,
				Ratings: []RatingChange{{1, 1200, 1220}, {2, 1200, 1180}}, XP: []XPAward{{1, 15}, {2, 10}}}},
		{"lounge loss, VIP winner", Ended{Table: LoungeTable, White: vipW, Black: vipB, Stake: kah, Status: game.Finished, Result: game.BlackWins},
			Decision{Entries: []Entry{payout(UserAccount(2), 970), fee(30)}, Rated: true, Points: true,
				Ratings: []RatingChange{{1, 1200, 1180}, {2, 1200, 1220}}, XP: []XPAward{{1, 10}, {2, 15}}}},
		{"lounge, VIP loser pays no lower fee", Ended{Table: LoungeTable, White: vipW, Black: newB, Stake: kah, Status: game.Finished, Result: game.BlackWins},
			Decision{Entries: []Entry{payout(UserAccount(2), 950), fee(50)}, Rated: true, Points: true,
				Ratings: []RatingChange{{1, 1200, 1180}, {2, 1200, 1220}}, XP: []XPAward{{1, 10}, {2, 15}}}},
		{"lounge draw", Ended{Table: LoungeTable, White: newW, Black: newB, Stake: kah, Status: game.Finished, Result: game.Draw},
			Decision{Entries: []Entry{refund(UserAccount(1)), refund(UserAccount(2))}, Rated: true, Points: true,
				Ratings: []RatingChange{{1, 1200, 1200}, {2, 1200, 1200}}, XP: []XPAward{{1, 10}, {2, 10}}}},
		{"lounge aborted", Ended{Table: LoungeTable, White: newW, Black: newB, Stake: kah, Status: game.Aborted, Result: game.WhiteWins},
			Decision{Entries: []Entry{refund(UserAccount(1)), refund(UserAccount(2))}}},
		{"lounge, bot wins", Ended{Table: LoungeTable, White: hard, Black: newB, Stake: kah, Status: game.Finished, Result: game.WhiteWins},
			// against 1700: expected 0.053, 40 × −0.053 = −2.1
			Decision{Entries: []Entry{{From: escrow, To: SinkAccount, Amount: 950, Reason: ReasonBotWin, Game: id}, fee(50)},
				Rated: true, Points: true, Ratings: []RatingChange{{2, 1200, 1198}}, XP: []XPAward{{2, 10}}}},
		{"lounge, human beats a bot", Ended{Table: LoungeTable, White: vipW, Black: medium, Stake: kah, Status: game.Finished, Result: game.WhiteWins},
			Decision{Entries: []Entry{payout(UserAccount(1), 970), fee(30)}, Rated: true, Points: true,
				Ratings: []RatingChange{{1, 1200, 1226}}, XP: []XPAward{{1, 15}}}},
		{"lounge draw with a bot", Ended{Table: LoungeTable, White: medium, Black: newB, Stake: kah, Status: game.Finished, Result: game.Draw},
			Decision{Entries: []Entry{refund(HouseAccount), refund(UserAccount(2))}, Rated: true, Points: true,
				Ratings: []RatingChange{{2, 1200, 1206}}, XP: []XPAward{{2, 10}}}},

		// The same opponent's 4th game: nothing but experience.
		{"unstaked lounge win", Ended{Table: LoungeTable, White: newW, Black: newB, Stake: kah, Unstaked: true, Status: game.Finished, Result: game.WhiteWins},
			Decision{XP: []XPAward{{1, 15}, {2, 10}}}},
		{"unstaked lounge draw", Ended{Table: LoungeTable, White: newW, Black: newB, Stake: kah, Unstaked: true, Status: game.Finished, Result: game.Draw},
			Decision{XP: []XPAward{{1, 10}, {2, 10}}}},
		{"unstaked lounge aborted", Ended{Table: LoungeTable, White: newW, Black: newB, Stake: kah, Unstaked: true, Status: game.Aborted},
			Decision{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Game = id
			got, err := Decide(tc.in)
			if err != nil {
				t.Fatalf("Decide(%+v) error %v", tc.in, err)
			}
			if !equalDecisions(got, tc.want) {
				t.Errorf("Decide(%+v) =\n%+v, want\n%+v", tc.in, got, tc.want)
			}
			// The ledger's conservation: what leaves the escrow is what
			// two stakes put in, or nothing.
			var out int64
			for _, e := range got.Entries {
				out += e.Amount
			}
			if out != 0 && out != 2*tc.in.Stake {
				t.Errorf("Decide(%+v) empties %d from the escrow, want %d", tc.in, out, 2*tc.in.Stake)
			}
		})
	}
}

func equalDecisions(a, b Decision) bool {
	return slices.Equal(a.Entries, b.Entries) && a.Rated == b.Rated && slices.Equal(a.Ratings, b.Ratings) &&
		slices.Equal(a.XP, b.XP) && a.Points == b.Points
}

func TestDecideRefuses(t *testing.T) {
	ali, veli := Side{Seat: game.Human(1)}, Side{Seat: game.Human(2)}
	for _, in := range []Ended{
		{Game: 1, Table: QuickPlay, White: ali, Black: veli, Status: game.Active},
		{Game: 1, Table: LoungeTable, White: ali, Black: veli, Stake: 500, Status: game.Finished}, // no result
		{Game: 0, Table: LoungeTable, White: ali, Black: veli, Stake: 500, Status: game.Finished, Result: game.Draw},
		{Game: 1, Table: LoungeTable, White: ali, Black: Side{}, Stake: 500, Status: game.Finished, Result: game.Draw},
	} {
		if _, err := Decide(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("Decide(%+v) error = %v, want ErrInvalid", in, err)
		}
	}
}

// TestDecideKBoundary checks the development coefficient per side: 40 up
// to a player's 30th rated game, 20 from the 31st (SPEC section 7).
func TestDecideKBoundary(t *testing.T) {
	for rated, want := range map[int]int{0: 1220, 29: 1220, 30: 1210, 31: 1210, 500: 1210} {
		in := Ended{Game: 1, Table: QuickPlay, White: Side{Seat: game.Human(1), Rating: 1200, RatedGames: rated},
			Black: Side{Seat: game.Human(2), Rating: 1200}, Status: game.Finished, Result: game.WhiteWins}
		d, err := Decide(in)
		if err != nil || len(d.Ratings) != 2 || d.Ratings[0].After != want || d.Ratings[1].After != 1180 {
			t.Errorf("Decide after %d rated games = %+v, %v; want White at %d, Black at 1180", rated, d.Ratings, err, want)
		}
	}
}

func TestOpen(t *testing.T) {
	kah, has := Lounges[0], Lounges[3]
	rich := Player{Balance: 10 * has.Stake}
	ali := func(p Player) Sitter { return Sitter{Seat: game.Human(1), Player: p} }
	veli := func(p Player) Sitter { return Sitter{Seat: game.Human(2), Player: p} }
	bot := Sitter{Seat: game.Bot(game.Easy)} // no balance: the house pays
	tests := []struct {
		name         string
		in           Opening
		wantUnstaked bool
		wantErr      error
	}{
		{"first game", Opening{Table: LoungeTable, Lounge: kah, White: ali(rich), Black: veli(rich)}, false, nil},
		{"3rd game", Opening{Table: LoungeTable, Lounge: kah, White: ali(rich), Black: veli(rich), Earlier: 2}, false, nil},
		{"4th game", Opening{Table: LoungeTable, Lounge: kah, White: ali(rich), Black: veli(rich), Earlier: 3}, true, nil},
		{"10th game", Opening{Table: LoungeTable, Lounge: kah, White: ali(rich), Black: veli(rich), Earlier: 9}, true, nil},
		{"against a bot, whatever the count", Opening{Table: LoungeTable, Lounge: kah, White: bot, Black: veli(rich), Earlier: 9}, false, nil},
		{"exactly 10 × the stake", Opening{Table: LoungeTable, Lounge: kah, White: ali(Player{Balance: 5000}), Black: bot}, false, nil},
		{"one chip short", Opening{Table: LoungeTable, Lounge: kah, White: ali(rich), Black: veli(Player{Balance: 4999})}, false, ErrInsufficientBalance},
		{"Has Oda, male", Opening{Table: LoungeTable, Lounge: has, White: ali(rich), Black: bot}, false, ErrReserved},
		{"Has Oda, female", Opening{Table: LoungeTable, Lounge: has, White: ali(Player{Balance: rich.Balance, Female: true}), Black: bot}, false, nil},
		{"Has Oda, VIP", Opening{Table: LoungeTable, Lounge: has, White: bot, Black: veli(Player{Balance: rich.Balance, VIP: true})}, false, nil},
		{"Has Oda, poor female", Opening{Table: LoungeTable, Lounge: has, White: ali(Player{Female: true}), Black: bot}, false, ErrInsufficientBalance},
		{"restricted", Opening{Table: LoungeTable, Lounge: kah, White: ali(rich), Black: veli(Player{Balance: rich.Balance, Restricted: true})}, false, ErrRestricted},
		{"restricted before another's balance", Opening{Table: LoungeTable, Lounge: kah, White: ali(Player{}), Black: veli(Player{Restricted: true})}, false, ErrRestricted},
		{"restricted before another's reservation", Opening{Table: LoungeTable, Lounge: has, White: ali(rich), Black: veli(Player{Balance: rich.Balance, Restricted: true})}, false, ErrRestricted},
		{"Quick Play", Opening{Table: QuickPlay, White: ali(Player{}), Black: veli(Player{}), Earlier: 9}, false, nil},
		{"Quick Play against a bot", Opening{Table: QuickPlay, White: bot, Black: veli(Player{})}, false, nil},
		{"Quick Play, restricted", Opening{Table: QuickPlay, White: bot, Black: veli(Player{Restricted: true})}, false, ErrRestricted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Open(tc.in)
			if !errors.Is(err, tc.wantErr) || got != tc.wantUnstaked {
				t.Errorf("Open(%+v) = %v, %v; want %v, %v", tc.in, got, err, tc.wantUnstaked, tc.wantErr)
			}
		})
	}
}

func ExampleDecide() {
	d, _ := Decide(Ended{Game: 7, Table: LoungeTable, Stake: 500, Status: game.Finished, Result: game.WhiteWins,
		White: Side{Seat: game.Human(1), Rating: 1200}, Black: Side{Seat: game.Bot(game.Easy)}})
	for _, e := range d.Entries {
		fmt.Println(e.Reason, e.Amount, e.To)
	}
	fmt.Println(d.Ratings, d.XP, d.Points)
	// Output:
	// payout 950 user 1
	// fee 50 house
	// [{1 1200 1204}] [{1 15}] true
}

func TestMaySit(t *testing.T) {
	kah, has := Lounges[0], Lounges[3]
	rich := int64(10 * has.Stake)
	tests := []struct {
		name  string
		p     Player
		table Table
		l     Lounge
		want  Refusal
	}{
		{"private, restricted and poor", Player{Restricted: true}, Casual, has, Allowed},
		{"quick, poor", Player{}, QuickPlay, Lounge{}, Allowed},
		{"quick, restricted", Player{Balance: rich, VIP: true, Restricted: true}, QuickPlay, Lounge{}, Restricted},
		{"lounge, exactly 10 × stake", Player{Balance: 5000}, LoungeTable, kah, Allowed},
		{"lounge, one chip short", Player{Balance: 4999}, LoungeTable, kah, TooFewChips},
		{"lounge, restricted", Player{Balance: rich, Restricted: true}, LoungeTable, kah, Restricted},
		{"restricted before reserved", Player{Restricted: true}, LoungeTable, has, Restricted},
		{"reserved before balance", Player{}, LoungeTable, has, NotReserved},
		{"Has Oda, female", Player{Balance: rich, Female: true}, LoungeTable, has, Allowed},
		{"Has Oda, VIP", Player{Balance: rich, VIP: true}, LoungeTable, has, Allowed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := MaySit(tc.p, tc.table, tc.l); got != tc.want {
				t.Errorf("MaySit(%+v, %d, %s) = %v, want %v", tc.p, tc.table, tc.l.Slug, got, tc.want)
			}
			if tc.table == LoungeTable {
				if got := tc.l.CanSit(tc.p); got != tc.want {
					t.Errorf("%s.CanSit(%+v) = %v, want %v", tc.l.Name, tc.p, got, tc.want)
				}
			}
		})
	}
	if got := Restricted.Err(); got != ErrRestricted {
		t.Errorf("Restricted.Err() = %v, want ErrRestricted", got)
	}
	if got := Restricted.String(); got != "restricted" {
		t.Errorf("Restricted.String() = %q, want %q", got, "restricted")
	}
}
