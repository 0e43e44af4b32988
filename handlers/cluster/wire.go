package cluster

import (
	"encoding/json"
	"fmt"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/engine/voice"
)

// eventMsg is a game's event on the wire between nodes, with the game's
// snapshot after it (play.Event.After). One with no event (Event.Payload
// nil) carries a snapshot alone: the answer to a node that starts a
// stream. Chat messages and voice signals keep their types on the wire;
// every other event comes out as changed, since the page renders the
// snapshot that came with it whatever the event was.
type eventMsg struct {
	Event    play.Event
	Snapshot play.Snapshot
}

// changed is a game's event that came from the node that owns the game,
// other than a chat message or a voice signal: the game changed.
type changed struct {
	game.Stamp
}

// The kinds of event on the wire.
const (
	wireChange = "change"
	wireChat   = "chat"
	wireVoice  = "voice"
)

// wireEvent is an eventMsg as JSON. A chess.Position has no exported
// fields: the snapshot's positions go as FEN, in fields that shadow the
// embedded ones.
type wireEvent struct {
	Game     int64         `json:"game"`
	Kind     string        `json:"kind,omitempty"`
	Stamp    game.Stamp    `json:"stamp"`
	From     chess.Color   `json:"from,omitempty"`
	Signal   *voice.Signal `json:"signal,omitempty"`
	Snapshot wireSnapshot  `json:"snapshot"`
}

type wireSnapshot struct {
	play.Snapshot
	Start    string
	Position string
}

// MarshalJSON encodes m for the other nodes.
func (m eventMsg) MarshalJSON() ([]byte, error) {
	w := wireEvent{
		Game: m.Event.GameID,
		Snapshot: wireSnapshot{
			Snapshot: m.Snapshot,
			Start:    m.Snapshot.Start.FEN(), Position: m.Snapshot.Position.FEN(),
		},
	}
	if m.Event.Payload != nil {
		w.Kind, w.Stamp = wireChange, m.Event.Payload.EventStamp()
		switch p := m.Event.Payload.(type) {
		case play.ChatPosted:
			w.Kind, w.From = wireChat, p.From
		case play.VoiceSignalled:
			w.Kind, w.From, w.Signal = wireVoice, p.From, &p.Signal
		}
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes an eventMsg another node encoded. The event comes
// back as play.ChatPosted, play.VoiceSignalled or changed.
func (m *eventMsg) UnmarshalJSON(data []byte) error {
	var w wireEvent
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("bus: event: %w", err)
	}
	snap := w.Snapshot.Snapshot
	var err error
	if snap.Start, err = chess.ParseFEN(w.Snapshot.Start); err != nil {
		return fmt.Errorf("bus: event: start: %w", err)
	}
	if snap.Position, err = chess.ParseFEN(w.Snapshot.Position); err != nil {
		return fmt.Errorf("bus: event: position: %w", err)
	}
	ev := play.Event{GameID: w.Game}
	switch w.Kind {
	case "":
	case wireChat:
		ev.Payload = play.ChatPosted{Stamp: w.Stamp, From: w.From}
	case wireVoice:
		if w.Signal == nil {
			return fmt.Errorf("bus: event: a voice signal without its signal")
		}
		ev.Payload = play.VoiceSignalled{Stamp: w.Stamp, From: w.From, Signal: *w.Signal}
	default:
		ev.Payload = changed{Stamp: w.Stamp}
	}
	*m = eventMsg{Event: ev, Snapshot: snap}
	return nil
}
