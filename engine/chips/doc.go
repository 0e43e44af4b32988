// Package chips is the play money of SPEC section 5: the lounges and their
// stakes, who may sit where, and the double-entry ledger entries that hold
// stakes in escrow and settle a game. It is pure: amounts are int64 chips,
// and the store writes the entries this package computes.
//
// Every movement of chips is an Entry from one Account to another, so no
// chip is ever created or lost: the only source is the Issued account
// (sign-up grants, daily bonuses, prizes, administrators' grants), whose
// balance goes negative by exactly what was issued, and every balance
// together always sums to zero. Equivalently, as the issue puts it:
// users + escrow + house + sink == total issued.
//
// A staked game, in entries:
//
//	start:   white → escrow(game) stake; black → escrow(game) stake
//	         (a bot's stake comes from the house)
//	win:     escrow → winner pot − fee; escrow → house fee
//	         (a bot's winnings go to the sink: they leave the game)
//	draw, abort: escrow → each stake's payer, back; no fee
//
// An unstaked game (the same-opponent rule) holds nothing and settles
// nothing.
//
// Open and Decide are the rules of a public game's start and of any game's
// end, decided here so that the store only reads facts and writes the
// answer in its transaction: Open says whether each human may sit
// (MaySit, the one eligibility check, which the lobby uses too) and
// whether the same-opponent rule unstakes the game; Decide says what an
// ended game does to chips, ratings (engine/elo), experience (engine/xp)
// and tournament points.
//
//	d, err := chips.Decide(chips.Ended{Game: id, Table: chips.LoungeTable, ...})
//	// write d.Entries, d.Ratings and d.XP in one transaction
package chips
