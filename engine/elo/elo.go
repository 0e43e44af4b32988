// Package elo is the rating maths of SPEC section 7: the expected score and
// the new rating after a game. It is pure: no I/O, no clock.
//
// The formula is the Elo system as the FIDE Rating Regulations (section 8,
// "The rating system": expected score from the rating difference, and
// rating change = K × (score − expected)) state it, with the product's own
// constants from SPEC section 7: everyone starts at 1200; K is 40 for a
// player's first 30 rated games and 20 after; the result is rounded to the
// nearest integer. Unlike FIDE, the expected score is the exact logistic
// curve, not FIDE's lookup table, and there is no 400-point cap
// (SPEC gives the formula expected = 1 / (1 + 10^((opp − own)/400))).
package elo

import "math"

// Start is every player's first rating (SPEC section 7).
const Start = 1200

// Provisional is how many rated games a player plays with the larger K
// (SPEC section 7: K = 40 "for a player's first 30 rated games").
const Provisional = 30

// The development coefficients (SPEC section 7).
const (
	KNew         = 40 // a player's first Provisional rated games
	KEstablished = 20 // every game after those
)

// Score is a game's result from one player's side.
type Score float64

// The scores of SPEC section 7: 1 / ½ / 0.
const (
	Loss Score = 0
	Draw Score = 0.5
	Win  Score = 1
)

// Expected returns the expected score of a player rated own against one
// rated opp: 1 / (1 + 10^((opp − own)/400)) (SPEC section 7; FIDE Rating
// Regulations 8.1).
func Expected(own, opp int) float64 {
	return 1 / (1 + math.Pow(10, float64(opp-own)/400))
}

// K returns the development coefficient for a game played after rated
// earlier rated games: KNew for the 1st to the 30th rated game (rated 0 to
// 29), KEstablished from the 31st on.
func K(rated int) int {
	if rated < Provisional {
		return KNew
	}
	return KEstablished
}

// New returns the rating after a game: own + K × (score − expected),
// rounded to the nearest integer (halves away from zero), where K depends on
// rated, the number of rated games the player had finished before this one.
// A computer opponent's opp is its fixed rating (SPEC section 6), which
// never changes: callers simply do not call New for the bot's side.
func New(own, opp, rated int, score Score) int {
	delta := float64(K(rated)) * (float64(score) - Expected(own, opp))
	return own + int(math.Round(delta))
}
