package views

import (
	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/play"
)

// PublicBotName returns the name of the computer player on side of public
// game id: the same for the whole game and for everyone watching, and
// usually another in the next game.
func PublicBotName(id int64, side chess.Color) string {
	h := uint64(id)*0x9e3779b97f4a7c15 + uint64(side)
	h ^= h >> 29
	return account.BotNames[h%uint64(len(account.BotNames))]
}

// isPublic reports whether a game of kind k is played at a public table.
func isPublic(k play.Kind) bool { return k == play.Quick || k == play.Lounge }

// ProfilePath returns the path of the player's profile: a member's, or
// the one of the name a computer player goes by at a public table, so
// that both lead the same way; "" for a practice game's computer
// opponent, shown by its level, which has no name.
func (p PlayerView) ProfilePath() string {
	switch {
	case p.IsBot && p.BotName != "":
		return PlayerPath(p.BotName)
	case !p.IsBot && p.Name != "":
		return PlayerPath(p.Name)
	}
	return ""
}
