package lobby

import (
	"errors"
	"fmt"
)

// Lounge is one of the staked lounges of SPEC section 5.
type Lounge struct {
	// ID names the lounge in URLs and message IDs.
	ID string
	// Stake is what each player puts in, in chips.
	Stake int64
	// Reserved lounges admit only players whose profile says female, and
	// VIP members (Has Oda).
	Reserved bool
}

// MinBalanceFactor is how many stakes a player must hold to sit in a lounge
// (SPEC section 5: at least 10 × the stake).
const MinBalanceFactor = 10

// MinBalance returns the balance needed to sit in l.
func (l Lounge) MinBalance() int64 { return MinBalanceFactor * l.Stake }

// Lounges are the five lounges of SPEC section 5, cheapest first.
var Lounges = []Lounge{
	{ID: "kahvehane", Stake: 500},
	{ID: "kapalicarsi", Stake: 2_500},
	{ID: "saray-bahcesi", Stake: 10_000},
	{ID: "has-oda", Stake: 50_000, Reserved: true},
	{ID: "divan", Stake: 250_000},
}

// LoungeByID returns the lounge called id.
func LoungeByID(id string) (Lounge, bool) {
	for _, l := range Lounges {
		if l.ID == id {
			return l, true
		}
	}
	return Lounge{}, false
}

// Reasons a player may not sit at a table. Each is an error for Join and a
// Refusal for the lobby page.
var (
	ErrNotEnoughChips = errors.New("lobby: balance below 10 × the stake")
	ErrReserved       = errors.New("lobby: lounge open only to women and VIP members")
	ErrRestricted     = errors.New("lobby: account restricted from public tables")
)

// Refusal is why a player may not sit at a table, as a stable code for
// message IDs: "" when they may.
type Refusal string

// The refusals.
const (
	Allowed         Refusal = ""
	NotEnoughChips  Refusal = "not_enough_chips"
	ReservedLounge  Refusal = "reserved"
	RestrictedUser  Refusal = "restricted"
)

// Err returns the error of r, nil for Allowed.
func (r Refusal) Err() error {
	switch r {
	case Allowed:
		return nil
	case NotEnoughChips:
		return ErrNotEnoughChips
	case ReservedLounge:
		return ErrReserved
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

// MayPlayQuick says whether p may join Quick Play: anyone not restricted.
func MayPlayQuick(p Player) Refusal {
	if p.Restricted {
		return RestrictedUser
	}
	return Allowed
}

// MaySit says whether p may sit in lounge l, and if not, why. A
// restriction is reported first, then the reservation of Has Oda, then the
// balance, so that the reason given is the one that cannot be fixed by
// playing more.
func MaySit(p Player, l Lounge) Refusal {
	switch {
	case p.Restricted:
		return RestrictedUser
	case l.Reserved && !p.Female && !p.VIP:
		return ReservedLounge
	case p.Balance < l.MinBalance():
		return NotEnoughChips
	}
	return Allowed
}
