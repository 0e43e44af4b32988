package play

import (
	"satranc/engine/chess"
	"satranc/engine/game"
)

// Event is what play publishes on the hub for one game. Payload is one of
// the engine/game events (game.Started, game.Moved, game.DrawOffered,
// game.DrawDeclined, game.DrawOfferLapsed, game.PlayerDisconnected,
// game.PlayerReconnected, game.Ended) or RematchOffered, RematchReady or
// ChatPosted (chat.go); on Endings, game.Ended or ResultVoided. The hub
// carries it by pointer, one for every subscriber: a stream's buffer of
// 16 pending events holds 16 pointers, not 16 events. Read it, never
// change it.
type Event struct {
	GameID  int64
	Payload game.Event
	// After is the game once the events published with this one are
	// applied: the writer takes one snapshot per change and gives it to
	// every subscriber, which renders its viewer's page from it instead
	// of asking the writer again. It is shared: read it, never change
	// it. The events of one change (a mating move and the game's end)
	// share one After. nil on Endings.
	After *Snapshot
}

// Endings is the hub topic on which every game's game.Ended event is
// published too (no game has id 0), after it is stored and settled: pages
// that follow all games, such as the tournament standings, subscribe to it
// instead of to each game.
const Endings int64 = 0

// ResultVoided: an administrator voided the game's result. It goes out on
// Endings (see Service.ResultVoided), so that pages computed from results,
// such as the tournament standings, refresh.
type ResultVoided struct {
	game.Stamp
}

// ID returns the event's ply, the SSE event id: the number of half-moves
// played when it happened.
func (e Event) ID() int { return e.Payload.EventStamp().Ply }

// RematchOffered: By asked for a rematch of a finished game.
type RematchOffered struct {
	game.Stamp
	By chess.Color
}

// RematchReady: the rematch game NewGameID has started; both players'
// pages go there.
type RematchReady struct {
	game.Stamp
	NewGameID int64
}
