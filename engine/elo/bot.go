package elo

import "satranc/engine/game"

// BotRating returns the fixed rating of a computer player of level l
// (SPEC section 6: Easy 800, Medium 1300, Hard 1700), or 0 for NoBot. A
// human's rating after a game against a bot is computed against it; the
// bot's own rating never changes.
func BotRating(l game.Level) int {
	switch l {
	case game.Easy:
		return 800
	case game.Medium:
		return 1300
	case game.Hard:
		return 1700
	}
	return 0
}
