package lobby

import (
	"time"

	"satranc/engine/chips"
)

// State is where a player stands in the lobby.
type State uint8

// The states of a player.
const (
	// Idle: not waiting, and no recent game from the lobby.
	Idle State = iota
	// Waiting at a table for an opponent.
	Waiting
	// Starting: paired; the game is being created.
	Starting
	// Paired: the game has started (Status.Game).
	Paired
	// Failed: paired, but the game could not be created; join again.
	Failed
)

// Status is a player's place in the lobby.
type Status struct {
	State State
	// Table and Since: where and since when the player waits or waited.
	Table Table
	Since time.Time
	// Game is the started game once Paired.
	Game int64
	// Unstaked is set for a lounge game that counts as unstaked because the
	// two players met too often (SPEC section 5, same opponent again).
	Unstaked bool
}

// Event tells a waiting player that their wait is over: Status.State is
// Paired (go to Status.Game) or Failed.
type Event struct {
	User   int64
	Status Status
}

// Seat is a lounge with whether a player may sit in it.
type Seat struct {
	Lounge  chips.Lounge
	Refusal Refusal
}

// Overview is the lobby as one player sees it: whether they may play
// Quick Play, and each lounge with whether they may sit in it.
type Overview struct {
	Player  Player
	Quick   Refusal
	Lounges []Seat
}

// OverviewOf returns the overview of p.
func OverviewOf(p Player) Overview {
	o := Overview{Player: p, Quick: MayPlayQuick(p)}
	for _, l := range chips.Lounges {
		o.Lounges = append(o.Lounges, Seat{Lounge: l, Refusal: MaySit(p, l)})
	}
	return o
}
