package views

import (
	"fmt"
	"strconv"
	"time"

	"satranc/engine/chess"
	"satranc/engine/play"
)

// SSE events of the Watch page's one stream (handlers/watch.go), shared
// by the components and the handler.
const (
	// EventWatchList carries the whole list of games (WatchList): when
	// games start or end, or their order changes.
	EventWatchList = "watch-list"
)

// WatchGameEvent names the event that carries one listed game's mini-board
// alone (MiniGame), sent after each of its moves; only the page's item of
// that game takes it.
func WatchGameEvent(id int64) string { return "watch-" + strconv.FormatInt(id, 10) }

// MiniGame is one game in progress as a small live board: the Watch page
// lists them, the home page shows the first few. White is at the bottom,
// as a spectator sees a game.
type MiniGame struct {
	ID      int64
	Ply     int
	Control string
	Board   BoardView
	// Top and Bottom are Black and White, with their names (a bot at a
	// public table by its ordinary player name), ratings in a rated game,
	// and clocks as they stood at At.
	Top, Bottom PlayerView
	At          time.Time
}

// NewMiniGame builds the mini-board of snap; names and ratings are the
// human players' by user ID (the ratings of a rated game only, as on the
// game page).
func NewMiniGame(snap play.Snapshot, names map[int64]string, ratings map[int64]int) MiniGame {
	last, _ := snap.LastMove()
	g := MiniGame{
		ID: snap.ID, Ply: snap.Ply, Control: snap.Control.String(),
		Board: NewBoardView(snap.Position, chess.White).WithLastMove(last),
		At:    snap.Clocks.At,
	}
	g.Top, g.Bottom = NewPlayerViews(snap, GameViewInput{Names: names, Ratings: ratings})
	return g
}

// AtTime returns g with the running clock counted down to now, so that a
// mini-board drawn some seconds after its snapshot shows the time left.
func (g MiniGame) AtTime(now time.Time) MiniGame {
	if g.At.IsZero() || now.Before(g.At) {
		return g
	}
	for _, p := range []*PlayerView{&g.Top, &g.Bottom} {
		if p.Clock.Running {
			p.Clock.Remaining = max(p.Clock.Remaining-now.Sub(g.At), 0)
		}
	}
	g.At = now
	return g
}

// MiniGamesAt returns the games with their clocks at now (AtTime).
func MiniGamesAt(games []MiniGame, now time.Time) []MiniGame {
	out := make([]MiniGame, len(games))
	for i, g := range games {
		out[i] = g.AtTime(now)
	}
	return out
}

// Path returns the game's page.
func (g MiniGame) Path() string { return gamePath(g.ID) }

// IDText returns the game's ID, for data attributes.
func (g MiniGame) IDText() string { return strconv.FormatInt(g.ID, 10) }

// MiniClockText returns a mini-board clock's time left as m:ss (h:mm:ss
// from an hour), as static/js/watch.js also writes it: tenths would only
// flicker at that size.
func MiniClockText(c ClockView) string {
	s := int64(max(c.Remaining, 0) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
