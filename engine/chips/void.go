package chips

import "fmt"

// The reasons of a voided game's compensating entries. The ledger is
// append-only, so voiding a game adds entries instead of removing any.
const (
	ReasonVoidReturn Reason = "void_return" // winner, house or sink → escrow: what the settlement paid
	ReasonVoidRefund Reason = "void_refund" // escrow → payer: the stake back
)

// Void returns the entries that undo the chip settlement of game gameID,
// given every ledger entry of that game (its stakes and its settlement) in
// the order they were posted: whatever the settlement paid out of the
// escrow (the payout or a bot's winnings, and the fee) goes back into it,
// then each stake goes back to whoever paid it, as if the game had been a
// draw. Every account then stands as if the game had never been staked.
//
// A game that was refunded already (a draw, an abort) or held nothing has
// nothing to undo: Void returns no entries. A game whose stakes are still
// held (not settled) or whose entries do not add up is an ErrInvalid.
func Void(gameID int64, entries []Entry) ([]Entry, error) {
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
		case ReasonVoidReturn, ReasonVoidRefund:
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
	return append(returns, stakes...), nil
}
