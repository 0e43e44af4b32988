package game

import (
	"time"

	"satranc/engine/chess"
)

// Disconnect marks side as gone at now: unless it comes back (Reconnect, or
// a move) within the disconnection grace, it loses (SPEC section 8). Its
// clock keeps running. It does nothing for a computer player, for a side
// already disconnected, or in a game that is not Active.
func (g *Game) Disconnect(side chess.Color, now time.Time) []Event {
	evs := g.Tick(now)
	if g.status != Active || g.seats[side].IsBot() || !g.disconnect[side].IsZero() {
		return evs
	}
	g.disconnect[side] = now.Add(g.grace)
	return append(evs, PlayerDisconnected{Stamp: g.stamp(now), Side: side, Deadline: g.disconnect[side]})
}

// Reconnect marks side as back at now, if it was disconnected and the game
// goes on.
func (g *Game) Reconnect(side chess.Color, now time.Time) []Event {
	evs := g.Tick(now)
	if g.status != Active || g.disconnect[side].IsZero() {
		return evs
	}
	g.disconnect[side] = time.Time{}
	return append(evs, PlayerReconnected{Stamp: g.stamp(now), Side: side})
}
