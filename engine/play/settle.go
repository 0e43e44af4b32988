package play

import (
	"satranc/engine/chess"
	"satranc/engine/chips"
	"satranc/engine/game"
)

// Settlement of a game's end. A Store settles a game in the transaction
// that ends it (AppendMove with an Ending, or FinishGame), exactly once:
// the game is marked settled, and the ledger refuses the same entry twice.
// Settling covers, as SPEC sections 3, 5 and 7 say:
//
//   - chips, for a staked lounge game: the pot minus the fee to the winner
//     (the fee to the house; a bot's winnings to the sink), or both stakes
//     back after a draw or an abort (engine/chips Settle);
//   - Elo, for a game RatingChanges says rates: each human's rating against
//     the other's, or against a bot's fixed rating (engine/elo); bots'
//     ratings never change;
//   - experience, for every finished (not aborted) game of every kind
//     (engine/xp), and the statistics, which are derived from the games.

// RatingChanges reports whether a game of kind, unstaked or not, that ended
// with status changes ratings: chips.Rated, the rule the store applies
// when it settles the game (only public games played to the end, not
// aborted and not made unstaked by the same-opponent rule).
func RatingChanges(kind Kind, unstaked bool, status game.Status) bool {
	return chips.Rated(kind.Table(), unstaked, status)
}

// EarnsXP reports whether a game that ended with status earns experience
// (chips.XP): every finished game, of any kind; an aborted one does not.
func EarnsXP(status game.Status) bool { return chips.XP(status, false) > 0 }

// XPEarned returns the experience a game that ended with status and o
// earned the player of side: chips.XP, the rule the store applies when it
// settles the game.
func XPEarned(status game.Status, o game.Outcome, side chess.Color) int {
	winner, won := o.Winner()
	return chips.XP(status, won && winner == side)
}

// Table returns the settlement's name for a table of kind k.
func (k Kind) Table() chips.Table {
	switch k {
	case Quick:
		return chips.QuickPlay
	case Lounge:
		return chips.LoungeTable
	}
	return chips.Casual
}

// Settlement is what the settlement of a game's end gave one player, as
// the store holds it, for the result panel of the game page.
type Settlement struct {
	// Settled says the game's end has been settled; nothing else means
	// anything before.
	Settled bool
	// Rated says the player's rating changed; Rating is the change.
	Rated  bool
	Rating RatingChange
	// Staked is what the player put into a lounge game's escrow, and
	// Returned what came back to them from it: the pot minus the fee to a
	// winner, the stake to both after a draw or an abort.
	Staked, Returned int64
}

// Chips returns the player's net gain in chips: positive for a win,
// negative for a loss, 0 for a refund (or an unstaked game).
func (s Settlement) Chips() int64 { return s.Returned - s.Staked }

// Refunded reports whether the stake came back whole: a draw or an abort.
func (s Settlement) Refunded() bool { return s.Staked > 0 && s.Returned == s.Staked }
