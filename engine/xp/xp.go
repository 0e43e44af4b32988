// Package xp is experience and level (SPEC section 7: "every finished game
// earns experience; the profile shows a level"). It is pure.
//
// The rule: every finished game earns GameXP, a won game WinXP more; an
// aborted game earns nothing (it was not played out). Every kind of game
// counts (practice, private, Quick Play, lounges), since SPEC says every
// finished game. Levels are flat: each PerLevel XP is one level, starting at
// level 1, so a player sees progress after a handful of games and the rule
// fits in one sentence on the profile.
package xp

// The amounts of the rule above.
const (
	GameXP   = 10  // for every finished game
	WinXP    = 5   // extra for a win
	PerLevel = 100 // XP per level
)

// Award returns the XP a finished game earns a player who won it or not.
func Award(won bool) int {
	if won {
		return GameXP + WinXP
	}
	return GameXP
}

// Level returns the level of a player with total XP: 1 + xp / PerLevel.
func Level(total int) int {
	if total < 0 {
		return 1
	}
	return 1 + total/PerLevel
}

// Progress returns the XP gained within the current level and the XP the
// level needs, for a progress bar.
func Progress(total int) (into, need int) {
	if total < 0 {
		return 0, PerLevel
	}
	return total % PerLevel, PerLevel
}
