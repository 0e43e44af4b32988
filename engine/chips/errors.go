package chips

import "errors"

// Sentinel errors.
var (
	// ErrInsufficientBalance: a balance would go negative, or is below the
	// lounge's requirement of 10 × the stake.
	ErrInsufficientBalance = errors.New("chips: insufficient balance")
	// ErrReserved: Has Oda is open only to female profiles and VIPs.
	ErrReserved = errors.New("chips: lounge reserved")
	// ErrRestricted: an administrator restricted the account from public
	// tables (SPEC section 10). engine/lobby's ErrRestricted is this error.
	ErrRestricted = errors.New("chips: account restricted from public tables")
	// ErrNoLounge: no lounge has this stake or name.
	ErrNoLounge = errors.New("chips: no such lounge")
	// ErrOverflow: an entry would take a balance past what an int64
	// holds (about 9.2 × 10¹⁸ chips); the ledger refuses it rather than
	// wrap around or round.
	ErrOverflow = errors.New("chips: balance past the largest amount")
	// ErrInvalid: a malformed entry or argument.
	ErrInvalid = errors.New("chips: invalid")
)
