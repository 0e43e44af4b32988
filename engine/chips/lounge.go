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

// Player is what decides whether someone may sit at a public table: the
// one type of the one check, MaySit.
type Player struct {
	Balance int64
	Female  bool // the profile says female
	VIP     bool
	// Restricted: an administrator restricted the account from public
	// tables (SPEC section 10).
	Restricted bool
}

// Refusal is why a player may not sit at a table; Allowed means they may.
// The lobby shows it ("and why not", issue 6).
type Refusal uint8

// The refusals. MaySit checks Restricted first, then NotReserved, then
// TooFewChips; the values keep the order they were added in.
const (
	Allowed Refusal = iota
	NotReserved
	TooFewChips
	Restricted
)

var refusalNames = [...]string{"allowed", "reserved", "too_few_chips", "restricted"}

// String returns "allowed", "reserved", "too_few_chips" or "restricted",
// fit for a translation key.
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
	case Restricted:
		return ErrRestricted
	}
	return ErrInsufficientBalance
}

// MaySit is the one check of who may sit at a table, used by the lobby
// when a player joins and by the store's transaction that starts the game
// (chips.Open), so that a rematch is held to the same rules (SPEC sections
// 5 and 10). Practice and private games refuse nobody. Every public table
// refuses a restricted account; a lounge l then needs, for Has Oda
// (Reserved), a female profile or VIP, and a balance of at least 10 × its
// stake. l is ignored at other tables. The order makes the reason given
// the one that playing more cannot fix.
func MaySit(p Player, t Table, l Lounge) Refusal {
	switch {
	case !t.Public():
		return Allowed
	case p.Restricted:
		return Restricted
	case t != LoungeTable:
		return Allowed
	case l.Reserved && !p.Female && !p.VIP:
		return NotReserved
	case p.Balance < l.Requirement():
		return TooFewChips
	}
	return Allowed
}

// CanSit says whether p may sit in l: MaySit at a lounge table.
func (l Lounge) CanSit(p Player) Refusal { return MaySit(p, LoungeTable, l) }
