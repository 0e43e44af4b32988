package chips

import "fmt"

// Lounge is one of the staked public tables of SPEC section 5.
type Lounge struct {
	Slug  string // stable name for URLs and translation keys
	Name  string // the Turkish proper name, shown untranslated
	Stake int64  // chips per player
	// Reserved lounges are open only to female profiles and VIP members.
	Reserved bool
}

// Lounges are the five lounges in order of stake (SPEC section 5; the
// numbers are the product owner's and must hold exactly).
var Lounges = []Lounge{
	{Slug: "kahvehane", Name: "Kahvehane", Stake: 500},
	{Slug: "kapalicarsi", Name: "Kapalıçarşı", Stake: 2_500},
	{Slug: "saray-bahcesi", Name: "Saray Bahçesi", Stake: 10_000},
	{Slug: "has-oda", Name: "Has Oda", Stake: 50_000, Reserved: true},
	{Slug: "divan", Name: "Divan-ı Hümayun", Stake: 250_000},
}

// BalanceMultiple is how many stakes a balance must hold to sit in a lounge
// (SPEC section 5: "at least 10 × the stake").
const BalanceMultiple = 10

// LoungeByStake returns the lounge whose stake is stake.
func LoungeByStake(stake int64) (Lounge, error) {
	for _, l := range Lounges {
		if l.Stake == stake {
			return l, nil
		}
	}
	return Lounge{}, fmt.Errorf("%w: stake %d", ErrNoLounge, stake)
}

// LoungeBySlug returns the lounge called slug.
func LoungeBySlug(slug string) (Lounge, error) {
	for _, l := range Lounges {
		if l.Slug == slug {
			return l, nil
		}
	}
	return Lounge{}, fmt.Errorf("%w: %q", ErrNoLounge, slug)
}

// Requirement returns the balance needed to sit in l.
func (l Lounge) Requirement() int64 { return BalanceMultiple * l.Stake }

// Player is what decides whether someone may sit in a lounge.
type Player struct {
	Balance int64
	Female  bool // the profile says female
	VIP     bool
}

// Refusal is why a player may not sit in a lounge; Allowed means they may.
// The lobby shows it ("and why not", issue 6).
type Refusal uint8

// The refusals, in the order they are checked.
const (
	Allowed Refusal = iota
	NotReserved
	TooFewChips
)

var refusalNames = [...]string{"allowed", "reserved", "too_few_chips"}

// String returns "allowed", "reserved" or "too_few_chips", fit for a
// translation key.
func (r Refusal) String() string {
	if int(r) < len(refusalNames) {
		return refusalNames[r]
	}
	return fmt.Sprintf("Refusal(%d)", uint8(r))
}

// Err returns the sentinel error for r, or nil for Allowed.
func (r Refusal) Err() error {
	switch r {
	case Allowed:
		return nil
	case NotReserved:
		return ErrReserved
	}
	return ErrInsufficientBalance
}

// CanSit says whether p may sit in l: Has Oda (Reserved) needs a female
// profile or VIP, and every lounge a balance of at least 10 × its stake.
func (l Lounge) CanSit(p Player) Refusal {
	switch {
	case l.Reserved && !p.Female && !p.VIP:
		return NotReserved
	case p.Balance < l.Requirement():
		return TooFewChips
	}
	return Allowed
}
