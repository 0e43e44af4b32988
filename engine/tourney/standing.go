package tourney

import (
	"cmp"
	"slices"
)

// Points per game (SPEC section 7): only public staked games played to the
// end count, in both tournaments at once; a win scores WinPoints, a draw
// or a loss OtherPoints. Aborted games, games the same-opponent rule made
// unstaked and voided games score nothing.
const (
	WinPoints   = 3
	OtherPoints = 1
)

// Points returns what one counted game scores.
func Points(won bool) int {
	if won {
		return WinPoints
	}
	return OtherPoints
}

// Standing is one player's line in a period: their place, points, counted
// games and wins. Bots are not accounts and have no standing.
type Standing struct {
	Rank   int
	User   int64
	Name   string
	Points int
	Games  int
	Wins   int
}

// Rank orders ss in place and sets each Rank. Players with the same points
// share a place (the Tournament Rules say so), and the next place is
// skipped: 1, 1, 3. Within a place the order is more wins first, then
// fewer games, then the name, so that the page is stable.
func Rank(ss []Standing) []Standing {
	slices.SortFunc(ss, func(a, b Standing) int {
		return cmp.Or(
			cmp.Compare(b.Points, a.Points),
			cmp.Compare(b.Wins, a.Wins),
			cmp.Compare(a.Games, b.Games),
			cmp.Compare(a.Name, b.Name),
			cmp.Compare(a.User, b.User),
		)
	})
	for i := range ss {
		if i > 0 && ss[i].Points == ss[i-1].Points {
			ss[i].Rank = ss[i-1].Rank
		} else {
			ss[i].Rank = i + 1
		}
	}
	return ss
}
