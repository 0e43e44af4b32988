package views

import (
	"net/url"

	"satranc/engine/lobby"
)

// LeaderboardSize is how many players the leaderboard lists.
const LeaderboardSize = 100

// LeaderboardView is the leaderboard page: the best players, and the
// viewer's own place when it is not among them.
type LeaderboardView struct {
	Top []lobby.Standing
	// Viewer is the logged-in viewer's ID (0 for a guest); Me is their
	// standing, shown below the list when they are not in Top.
	Viewer int64
	Me     *lobby.Standing
}

// NewLeaderboardView builds the page; me is nil for a guest.
func NewLeaderboardView(top []lobby.Standing, me *lobby.Standing) LeaderboardView {
	v := LeaderboardView{Top: top}
	if me == nil {
		return v
	}
	v.Viewer = me.User
	for _, s := range top {
		if s.User == me.User {
			return v
		}
	}
	v.Me = me
	return v
}

// PlayerPath returns the profile path of the player called name.
func PlayerPath(name string) string { return "/players/" + url.PathEscape(name) }
