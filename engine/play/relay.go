package play

import (
	"encoding/json"
	"fmt"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/voice"
)

// With several nodes (docs/scaling.md), the node that owns a game gives
// each of the game's events to Config.Relay with the game's snapshot just
// after it; the cluster sends them to the other nodes as Messages, and a
// node that does not own the game serves its event streams from them,
// rendering for each viewer itself.

// Relayed is a game's event that came from the node that owns the game,
// other than a chat message or a voice signal (which keep their own
// types): the game changed, and the page renders the snapshot that came
// with it.
type Relayed struct {
	game.Stamp
}

// Message is a game's event on the wire between nodes, with the game's
// snapshot just after it. A Message with no event (Event.Payload nil)
// carries a snapshot alone: the answer to a node that starts a stream.
type Message struct {
	Event    Event
	Snapshot Snapshot
}

// The kinds of event on the wire.
const (
	wireChange = "change"
	wireChat   = "chat"
	wireVoice  = "voice"
)

// wireMessage is a Message as JSON. A chess.Position has no exported
// fields: the snapshot's positions go as FEN, in fields that shadow the
// embedded ones.
type wireMessage struct {
	Game     int64         `json:"game"`
	Kind     string        `json:"kind,omitempty"`
	Stamp    game.Stamp    `json:"stamp"`
	From     chess.Color   `json:"from,omitempty"`
	Signal   *voice.Signal `json:"signal,omitempty"`
	Snapshot wireSnapshot  `json:"snapshot"`
}

type wireSnapshot struct {
	Snapshot
	Start    string
	Position string
}

// MarshalJSON encodes m for the other nodes.
func (m Message) MarshalJSON() ([]byte, error) {
	w := wireMessage{
		Game: m.Event.GameID,
		Snapshot: wireSnapshot{
			Snapshot: m.Snapshot,
			Start:    m.Snapshot.Start.FEN(), Position: m.Snapshot.Position.FEN(),
		},
	}
	if m.Event.Payload != nil {
		w.Kind, w.Stamp = wireChange, m.Event.Payload.EventStamp()
		switch p := m.Event.Payload.(type) {
		case ChatPosted:
			w.Kind, w.From = wireChat, p.From
		case VoiceSignalled:
			w.Kind, w.From, w.Signal = wireVoice, p.From, &p.Signal
		}
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes a Message another node encoded. The event comes
// back as ChatPosted, VoiceSignalled or Relayed.
func (m *Message) UnmarshalJSON(data []byte) error {
	var w wireMessage
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("play: message: %w", err)
	}
	snap := w.Snapshot.Snapshot
	var err error
	if snap.Start, err = chess.ParseFEN(w.Snapshot.Start); err != nil {
		return fmt.Errorf("play: message: start: %w", err)
	}
	if snap.Position, err = chess.ParseFEN(w.Snapshot.Position); err != nil {
		return fmt.Errorf("play: message: position: %w", err)
	}
	ev := Event{GameID: w.Game}
	switch w.Kind {
	case "":
	case wireChat:
		ev.Payload = ChatPosted{Stamp: w.Stamp, From: w.From}
	case wireVoice:
		if w.Signal == nil {
			return fmt.Errorf("play: message: a voice signal without its signal")
		}
		ev.Payload = VoiceSignalled{Stamp: w.Stamp, From: w.From, Signal: *w.Signal}
	default:
		ev.Payload = Relayed{Stamp: w.Stamp}
	}
	*m = Message{Event: ev, Snapshot: snap}
	return nil
}
