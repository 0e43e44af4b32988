package lobby

import "testing"

func TestMaySit(t *testing.T) {
	kahvehane, _ := LoungeByID("kahvehane")
	hasOda, _ := LoungeByID("has-oda")
	tests := []struct {
		name   string
		p      Player
		l      Lounge
		want   Refusal
		wantQP Refusal
	}{
		{"exactly 10 × stake", Player{Balance: 5_000}, kahvehane, Allowed, Allowed},
		{"one chip short", Player{Balance: 4_999}, kahvehane, NotEnoughChips, Allowed},
		{"restricted", Player{Balance: 1_000_000, Restricted: true}, kahvehane, RestrictedUser, RestrictedUser},
		{"Has Oda, man", Player{Balance: 500_000}, hasOda, ReservedLounge, Allowed},
		{"Has Oda, woman", Player{Balance: 500_000, Female: true}, hasOda, Allowed, Allowed},
		{"Has Oda, VIP", Player{Balance: 500_000, VIP: true}, hasOda, Allowed, Allowed},
		{"Has Oda, woman short of chips", Player{Balance: 499_999, Female: true}, hasOda, NotEnoughChips, Allowed},
		{"Has Oda, man short of chips", Player{Balance: 0}, hasOda, ReservedLounge, Allowed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := MaySit(tc.p, tc.l); got != tc.want {
				t.Errorf("MaySit(%+v, %s) = %q, want %q", tc.p, tc.l.ID, got, tc.want)
			}
			if got := MayPlayQuick(tc.p); got != tc.wantQP {
				t.Errorf("MayPlayQuick(%+v) = %q, want %q", tc.p, got, tc.wantQP)
			}
		})
	}
}

func TestLounges(t *testing.T) {
	// SPEC section 5: the stakes are the product owner's numbers.
	want := []int64{500, 2_500, 10_000, 50_000, 250_000}
	if len(Lounges) != len(want) {
		t.Fatalf("%d lounges, want %d", len(Lounges), len(want))
	}
	for i, l := range Lounges {
		if l.Stake != want[i] || l.MinBalance() != 10*want[i] || l.Reserved != (l.ID == "has-oda") {
			t.Errorf("Lounges[%d] = %+v, want stake %d", i, l, want[i])
		}
	}
}
