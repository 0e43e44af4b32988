package chips

import "fmt"

// The reasons of a voided game's compensating entries. The ledger is
// append-only, so voiding a game adds entries instead of removing any.
const (
	ReasonVoidReturn Reason = "void_return" // winner, house or sink → escrow: what the settlement paid
	ReasonVoidRefund Reason = "void_refund" // escrow → payer: the stake back
	// ReasonVoidCover (house → escrow) is the part of a payout that the
	// winner no longer holds, so that the other side still gets its stake
	// back (SPEC section 10: a void reverses the chip effects).
	ReasonVoidCover Reason = "void_cover"
	// ReasonVoidOffset (escrow → house) is the winner's own stake kept
	// against what the house covered for them: a winner who spent the
	// winnings ends at their balance minus the game's net gain, or at
	// zero, never above it.
	ReasonVoidOffset Reason = "void_offset"
)

// Void returns the entries that undo the chip settlement of game gameID,
// given every ledger entry of that game (its stakes and its settlement) in
// the order they were posted: whatever the settlement paid out of the
// escrow (the payout or a bot's winnings, and the fee) goes back into it,
// then each stake goes back to whoever paid it, as if the game had been a
// draw. Every account then stands as if the game had never been staked.
// Void assumes that the winner still holds the payout; VoidHolding does
// not.
//
// A game that was refunded already (a draw, an abort) or held nothing has
// nothing to undo: Void returns no entries. A game whose stakes are still
// held (not settled) or whose entries do not add up is an ErrInvalid.
func Void(gameID int64, entries []Entry) ([]Entry, error) {
	return VoidHolding(gameID, entries, nil)
}

// VoidHolding is Void when a winner may have spent part or all of the
// payout since: holds reports what a user's balance holds now (nil: all
// of it). A user gives back what they hold, up to the payout; the house
// covers the rest (ReasonVoidCover), so that every other payer still gets
// the whole stake back. What the house covered is then taken, up to the
// winner's own stake, from that stake's refund (ReasonVoidOffset): the
// winner ends at max(0, balance − net gain of the game), and the house is
// out only what the winner can no longer return. No balance goes below
// zero, and every entry moves chips between two accounts, so the ledger's
// total is unchanged.
func VoidHolding(gameID int64, entries []Entry, holds func(Account) int64) ([]Entry, error) {
	escrow := EscrowAccount(gameID)
	var held, paid int64
	var stakes, returns []Entry
	for _, e := range entries {
		if e.Game != gameID {
			return nil, fmt.Errorf("%w: entry of game %d given to void game %d", ErrInvalid, e.Game, gameID)
		}
		switch e.Reason {
		case ReasonStake:
			held += e.Amount
			stakes = append(stakes, Entry{From: escrow, To: e.From, Amount: e.Amount, Reason: ReasonVoidRefund, Game: gameID})
		case ReasonPayout, ReasonFee, ReasonBotWin:
			paid += e.Amount
			returns = append(returns, Entry{From: e.To, To: escrow, Amount: e.Amount, Reason: ReasonVoidReturn, Game: gameID})
		case ReasonRefund:
			paid += e.Amount
		case ReasonVoidReturn, ReasonVoidRefund, ReasonVoidCover, ReasonVoidOffset:
			return nil, fmt.Errorf("%w: game %d is voided already", ErrInvalid, gameID)
		default:
			return nil, fmt.Errorf("%w: game %d has an entry for %s", ErrInvalid, gameID, e.Reason)
		}
	}
	if held != paid {
		return nil, fmt.Errorf("%w: game %d held %d chips and paid out %d", ErrInvalid, gameID, held, paid)
	}
	if len(returns) == 0 {
		return nil, nil // refunded already, or never staked
	}
	if holds == nil {
		return append(returns, stakes...), nil
	}
	out := make([]Entry, 0, len(returns)+len(stakes)+2)
	covered := map[Account]int64{} // per user: what the house covered for them
	left := map[Account]int64{}    // per user: what their balance still holds
	for _, r := range returns {
		if r.From.Kind != User {
			out = append(out, r) // the house and the sink return all they took
			continue
		}
		if _, ok := left[r.From]; !ok {
			left[r.From] = max(holds(r.From), 0)
		}
		give := min(left[r.From], r.Amount)
		left[r.From] -= give
		if give > 0 {
			out = append(out, Entry{From: r.From, To: escrow, Amount: give, Reason: ReasonVoidReturn, Game: gameID})
		}
		if short := r.Amount - give; short > 0 {
			covered[r.From] += short
			out = append(out, Entry{From: HouseAccount, To: escrow, Amount: short, Reason: ReasonVoidCover, Game: gameID})
		}
	}
	for _, s := range stakes {
		keep := min(covered[s.To], s.Amount)
		covered[s.To] -= keep
		if keep > 0 {
			out = append(out, Entry{From: escrow, To: HouseAccount, Amount: keep, Reason: ReasonVoidOffset, Game: gameID})
		}
		if s.Amount > keep {
			s.Amount -= keep
			out = append(out, s)
		}
	}
	return out, nil
}
