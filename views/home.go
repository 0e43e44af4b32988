package views

import (
	"fmt"
	"net/url"
	"time"

	"satranc/engine/clock"
	"satranc/engine/tourney"
)

// HomeView is the home page: the Quick Play grid for everyone; for a
// member also their game in progress, practice against the computer, a
// private game and the lounges.
type HomeView struct {
	Controls []clock.Control
	// Member: the viewer is logged in; Lobby is then the lobby's view
	// (Quick Play's refusal, if any, and the lounges), nil without a
	// lobby.
	Member bool
	Lobby  *LobbyView
	// Game is the member's game in progress, 0 for none.
	Game int64
	// Counts: Players members at Games games in progress; HasCounts is
	// false when they are not known.
	HasCounts      bool
	Players, Games int
	// Online is how many members were seen on the site lately (the last
	// five minutes).
	Online int
	// Watch says the games to watch are shown (live: the Watch stream
	// keeps WatchGames, the first few of the Watch page, up to date).
	Watch      bool
	WatchGames []MiniGame
	// Cup is today's Daily Chess Cup, when the tournaments run: Leaders
	// are its first places.
	Cup     bool
	Leaders []tourney.Standing
}

// HomeWatchEvents is the home page's Watch stream: its first few games.
const HomeWatchEvents = "/watch/events?home=1"

// GamePath returns the path of the member's game in progress.
func (v HomeView) GamePath() string { return fmt.Sprintf("/games/%d", v.Game) }

// QuickPath is the page that puts a member in the Quick Play queue of c:
// where a guest goes on after signing up or logging in.
func QuickPath(c clock.Control) string { return "/play/quick/" + c.String() + "?go=1" }

// QuickSignupURL is the sign-up page that goes on to Quick Play at c.
func QuickSignupURL(c clock.Control) string {
	return "/signup?" + url.Values{"next": {QuickPath(c)}}.Encode()
}

// SpeedOf returns the message ID of c's speed, as lichess counts it from
// the estimated game time (initial + 40 × increment): bullet, blitz,
// rapid or classical.
func SpeedOf(c clock.Control) string {
	est := c.Initial + 40*c.Increment
	switch {
	case est < 3*time.Minute:
		return "home.speed.bullet"
	case est < 8*time.Minute:
		return "home.speed.blitz"
	case est < 25*time.Minute:
		return "home.speed.rapid"
	}
	return "home.speed.classical"
}
