package views

import "satranc/engine/play"

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
