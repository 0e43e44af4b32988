// Package fairplay is the administration of SPEC section 10: what an
// administrator sees of an account and a game, player reports, and the
// rules of voiding a game's result. It is pure; the store keeps the
// records and the handlers and `satranc admin` show them.
//
// Voiding a game (store.VoidGame) undoes, in one transaction and once:
//
//   - its chips: compensating ledger entries (engine/chips VoidHolding)
//     return the payout and the fee to the escrow and each stake to
//     whoever paid it, as if the game had been a draw; the ledger stays
//     append-only. A winner who has spent part of the payout since gives
//     back what their balance holds and the house covers the rest, taking
//     back the winner's own stake against it: the loser is made whole and
//     the winner ends at their balance minus the game's net gain, or at
//     zero, so a void is never refused for spent winnings;
//   - its Elo: each player's rating loses exactly the change this game
//     made (rating_after − rating_before) and one rated game is taken off
//     the count. Later games keep the changes they made: each was rated
//     against the ratings the players had when it was played, and
//     recomputing them would change the ratings of people who had nothing
//     to do with the voided game. With no later game, the ratings are
//     exactly what they were before it;
//   - its experience: each player loses the XP the game earned (engine/xp),
//     since a voided game should not reward anyone;
//   - its tournament points and statistics: games.voided_at is set, and
//     standings and the win/draw/loss counts leave voided games out.
//
// Only a finished game can be voided: an aborted one had no effect to
// undo, and a running one has no result yet.
//
// Service runs the administrator's actions (void, VIP, restriction,
// grant) for both the /admin pages and `satranc admin`:
//
//	svc := fairplay.NewService(st, games) // games announces voids; nil in the CLI
//	err := svc.Void(ctx, gameID, now)     // ErrAlreadyVoided the second time
package fairplay
