package lobby

import (
	"testing"

	"satranc/engine/chips"
)

func TestMaySit(t *testing.T) {
	kahvehane, _ := chips.LoungeBySlug("kahvehane")
	hasOda, _ := chips.LoungeBySlug("has-oda")
	tests := []struct {
		name   string
		p      Player
		l      chips.Lounge
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
				t.Errorf("MaySit(%+v, %s) = %q, want %q", tc.p, tc.l.Slug, got, tc.want)
			}
			if got := MayPlayQuick(tc.p); got != tc.wantQP {
				t.Errorf("MayPlayQuick(%+v) = %q, want %q", tc.p, got, tc.wantQP)
			}
		})
	}
}
