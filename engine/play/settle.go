package play

import "satranc/engine/game"

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
// with status changes ratings: only public games (Quick Play and lounges)
// played to the end, not aborted and not made unstaked by the
// same-opponent rule (SPEC section 7).
func RatingChanges(kind Kind, unstaked bool, status game.Status) bool {
	return (kind == Quick || kind == Lounge) && !unstaked && status == game.Finished
}

// EarnsXP reports whether a game that ended with status earns experience:
// every finished game, of any kind; an aborted one does not (SPEC sections
// 3 and 7).
func EarnsXP(status game.Status) bool { return status == game.Finished }
