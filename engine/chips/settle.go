package chips

import (
	"fmt"

	"satranc/engine/game"
)

// The table fees, in percent of the pot (SPEC section 5). The winner's
// status decides; a bot is a regular member.
const (
	FeePercent    = 5
	VIPFeePercent = 3
)

// Fee returns the table fee on pot for a winner who is VIP or not.
//
// Rounding: the fee is rounded down to the chip (integer division), so a
// fraction of a chip always goes to the winner, never to the house. With the
// lounges' stakes (multiples of 500, pots of multiples of 1,000) 5% and 3%
// are whole chips anyway: Kahvehane's pot of 1,000 pays 50 (VIP 30).
func Fee(pot int64, vip bool) int64 {
	pct := int64(FeePercent)
	if vip {
		pct = VIPFeePercent
	}
	return pot * pct / 100
}

// payer returns the account a seat's stake comes from: the user's balance,
// or the house for a bot (SPEC section 5: "the house covers the bot's
// stake").
func payer(s game.Seat) (Account, error) {
	switch {
	case s.IsHuman():
		return UserAccount(s.User), nil
	case s.IsBot():
		return HouseAccount, nil
	}
	return Account{}, fmt.Errorf("%w: empty seat", ErrInvalid)
}

// Hold returns the entries that put both stakes of game gameID in escrow
// as the game starts. A stake of 0 (an unstaked game) holds nothing.
func Hold(gameID int64, white, black game.Seat, stake int64) ([]Entry, error) {
	if stake < 0 || gameID <= 0 {
		return nil, fmt.Errorf("%w: hold game %d, stake %d", ErrInvalid, gameID, stake)
	}
	if stake == 0 {
		return nil, nil
	}
	escrow := EscrowAccount(gameID)
	var es []Entry
	for _, s := range []game.Seat{white, black} {
		from, err := payer(s)
		if err != nil {
			return nil, err
		}
		es = append(es, Entry{From: from, To: escrow, Amount: stake, Reason: ReasonStake, Game: gameID})
	}
	return es, nil
}

// Settlement is what settling a staked game needs to know.
type Settlement struct {
	Game         int64
	White, Black game.Seat
	Stake        int64 // per player, as held; 0 settles nothing
	Result       game.Result
	// Aborted games refund both stakes whatever Result says (SPEC section 3).
	Aborted bool
	// WinnerVIP: the winner is a VIP member and pays the lower fee.
	WinnerVIP bool
}

// Settle returns the entries that empty a game's escrow at its end (SPEC
// section 5):
//   - a win: the pot (2 × stake) minus the fee to the winner, the fee to the
//     house; if the winner is a bot, its pot − fee goes to the sink;
//   - a draw or an aborted game: each stake back to whoever paid it (the
//     house for a bot), no fee.
//
// A game without a result (still running) is an error.
func Settle(s Settlement) ([]Entry, error) {
	if s.Stake < 0 || s.Game <= 0 {
		return nil, fmt.Errorf("%w: settle game %d, stake %d", ErrInvalid, s.Game, s.Stake)
	}
	if s.Stake == 0 {
		return nil, nil
	}
	escrow := EscrowAccount(s.Game)
	wPayer, err := payer(s.White)
	if err != nil {
		return nil, err
	}
	bPayer, err := payer(s.Black)
	if err != nil {
		return nil, err
	}
	if s.Aborted || s.Result == game.Draw {
		return []Entry{
			{From: escrow, To: wPayer, Amount: s.Stake, Reason: ReasonRefund, Game: s.Game},
			{From: escrow, To: bPayer, Amount: s.Stake, Reason: ReasonRefund, Game: s.Game},
		}, nil
	}
	var winner game.Seat
	switch s.Result {
	case game.WhiteWins:
		winner = s.White
	case game.BlackWins:
		winner = s.Black
	default:
		return nil, fmt.Errorf("%w: settle game %d without a result", ErrInvalid, s.Game)
	}
	pot := 2 * s.Stake
	fee := Fee(pot, s.WinnerVIP && winner.IsHuman())
	win := Entry{From: escrow, To: UserAccount(winner.User), Amount: pot - fee, Reason: ReasonPayout, Game: s.Game}
	if winner.IsBot() {
		win.To, win.Reason = SinkAccount, ReasonBotWin
	}
	es := []Entry{win}
	if fee > 0 {
		es = append(es, Entry{From: escrow, To: HouseAccount, Amount: fee, Reason: ReasonFee, Game: s.Game})
	}
	return es, nil
}

// SameOpponentLimit is how many staked games two accounts may play each
// other within SameOpponentWindow; every further one is unstaked (SPEC
// section 5: "the 4th and every further staked game ... within 24 hours").
const SameOpponentLimit = 3

// Unstaked reports whether a new lounge game between two accounts is
// unstaked, given how many lounge games they began together in the last 24
// hours before it.
func Unstaked(earlier int) bool { return earlier >= SameOpponentLimit }
