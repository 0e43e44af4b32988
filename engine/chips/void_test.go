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
