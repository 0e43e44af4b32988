package chips

import (
	"fmt"
	"strconv"
)

// Kind is the kind of a ledger account.
type Kind uint8

// The kinds of account.
const (
	// User is a player's balance; ID is the user id. Never negative.
	User Kind = iota + 1
	// Escrow holds a game's stakes until it ends; ID is the game id. Never
	// negative, and empty once the game is settled.
	Escrow
	// House receives the table fees and covers the bots' stakes; ID is 0.
	// It may go negative: the house is where a beaten bot's stake comes
	// from.
	House
	// Sink receives what bots win: chips that leave the game (SPEC section
	// 5: "they go to no person"); ID is 0.
	Sink
	// Issued is the source of every chip that enters the game (grants,
	// bonuses, prizes); ID is 0. Its balance is minus the total issued.
	Issued
)

var kindNames = [...]string{"", "user", "escrow", "house", "sink", "issued"}

// String returns "user", "escrow", "house", "sink" or "issued", as stored.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ParseKind reads a kind as String writes it.
func ParseKind(s string) (Kind, error) {
	for i, n := range kindNames {
		if i > 0 && n == s {
			return Kind(i), nil
		}
	}
	return 0, fmt.Errorf("%w: account kind %q", ErrInvalid, s)
}

// MayGoNegative reports whether accounts of kind k may hold less than
// nothing: only the house and the issuer, which are sources.
func (k Kind) MayGoNegative() bool { return k == House || k == Issued }

// Account is one ledger account.
type Account struct {
	Kind Kind
	ID   int64
}

// The single accounts.
var (
	HouseAccount  = Account{Kind: House}
	SinkAccount   = Account{Kind: Sink}
	IssuedAccount = Account{Kind: Issued}
)

// UserAccount returns the balance account of user id.
func UserAccount(id int64) Account { return Account{Kind: User, ID: id} }

// EscrowAccount returns the escrow account of game id.
func EscrowAccount(game int64) Account { return Account{Kind: Escrow, ID: game} }

// String returns "user 3", "escrow 12", "house"...
func (a Account) String() string {
	if a.Kind == User || a.Kind == Escrow {
		return a.Kind.String() + " " + strconv.FormatInt(a.ID, 10)
	}
	return a.Kind.String()
}

// Reason says why chips moved; it is stored with each entry.
type Reason string

// The reasons (SPEC section 5 lists every way a balance may change).
const (
	ReasonSignup     Reason = "signup_grant" // Issued → user, once per account
	ReasonDailyBonus Reason = "daily_bonus"  // Issued → user, once per UTC day
	ReasonGrant      Reason = "admin_grant"  // Issued → user, by an administrator
	ReasonPrize      Reason = "prize"        // Issued → user, a tournament prize
	ReasonStake      Reason = "stake"        // user (or house, for a bot) → escrow
	ReasonPayout     Reason = "payout"       // escrow → winner: pot − fee
	ReasonFee        Reason = "fee"          // escrow → house: the table fee
	ReasonBotWin     Reason = "bot_win"      // escrow → sink: pot − fee won by a bot
	ReasonRefund     Reason = "refund"       // escrow → payer: draw, abort
)

// Entry is one double-entry ledger entry: Amount chips (> 0) leave From and
// reach To, for Reason, in Game (0 for none).
type Entry struct {
	From, To Account
	Amount   int64
	Reason   Reason
	Game     int64
}

// Grant returns the entry that issues amount chips to user for reason
// (sign-up, daily bonus, prize, administrator).
func Grant(user, amount int64, reason Reason) Entry {
	return Entry{From: IssuedAccount, To: UserAccount(user), Amount: amount, Reason: reason}
}

// The default amounts of the grants (SPEC section 5 leaves them to the
// operator; satranc serve --signup-grant and --daily-bonus change them).
// The sign-up grant lets a new player sit in Kahvehane at once (10 × 500).
const (
	DefaultSignupGrant = 5000
	DefaultDailyBonus  = 1000
)
