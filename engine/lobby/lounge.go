package lobby

import (
	"fmt"

	"satranc/engine/chips"
)

// ErrRestricted refuses an account that an administrator restricted from
// public tables (SPEC section 10). It is chips.ErrRestricted, so that
// errors.Is holds for the refusal whether the lobby or the store's
// transaction (chips.Open) gave it. The other refusals are chips'
// ErrInsufficientBalance and ErrReserved.
var ErrRestricted = chips.ErrRestricted

// Refusal is why a player may not sit at a table, as a stable code for
// message IDs: "" when they may.
type Refusal string

// The refusals.
const (
	Allowed        Refusal = ""
	NotEnoughChips Refusal = "not_enough_chips"
	ReservedLounge Refusal = "reserved"
	RestrictedUser Refusal = "restricted"
)

// Err returns the error of r, nil for Allowed.
func (r Refusal) Err() error {
	switch r {
	case Allowed:
		return nil
	case NotEnoughChips:
		return chips.ErrInsufficientBalance
	case ReservedLounge:
		return chips.ErrReserved
	case RestrictedUser:
		return ErrRestricted
	}
	return fmt.Errorf("lobby: refused: %s", string(r))
}

// Player is what the lobby knows of a player when they join.
type Player struct {
	User    int64
	Rating  int
	Balance int64
	// Female is set when the profile says female; VIP by an administrator.
	Female, VIP bool
	// Restricted accounts may not sit at public tables (SPEC section 10).
	Restricted bool
}

// eligibility returns what chips.MaySit, the one eligibility check, needs
// of p.
func (p Player) eligibility() chips.Player {
	return chips.Player{Balance: p.Balance, Female: p.Female, VIP: p.VIP, Restricted: p.Restricted}
}

// refusal returns the lobby's code for chips' refusal r.
func refusal(r chips.Refusal) Refusal {
	switch r {
	case chips.Allowed:
		return Allowed
	case chips.Restricted:
		return RestrictedUser
	case chips.NotReserved:
		return ReservedLounge
	}
	return NotEnoughChips
}

// MayPlayQuick says whether p may join Quick Play (chips.MaySit): anyone
// not restricted.
func MayPlayQuick(p Player) Refusal {
	return refusal(chips.MaySit(p.eligibility(), chips.QuickPlay, chips.Lounge{}))
}

// MaySit says whether p may sit in lounge l, and if not, why
// (chips.MaySit): a restriction first, then Has Oda's reservation, then
// the balance of 10 × the stake, so that the reason given is the one that
// playing more cannot fix.
func MaySit(p Player, l chips.Lounge) Refusal {
	return refusal(chips.MaySit(p.eligibility(), chips.LoungeTable, l))
}
