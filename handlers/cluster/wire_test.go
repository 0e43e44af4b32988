package cluster

import (
	"encoding/json"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/engine/voice"
)

// roundTrip sends m through the wire format and back.
func roundTrip(t *testing.T, m eventMsg) eventMsg {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var got eventMsg
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return got
}

// TestWireKeepsSnapshotAndEvents: a game's event crosses the wire with
// its snapshot whole (positions as FEN, moves, clocks, offers); chat and
// voice signals keep their types and sides, every other event comes out
// as changed at its ply; a snapshot alone comes out with no event.
func TestWireKeepsSnapshotAndEvents(t *testing.T) {
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	start := chess.StartPosition()
	e4, err := start.ParseSAN("e4", chess.English)
	if err != nil {
		t.Fatal(err)
	}
	snap := play.Snapshot{
		ID: 7, White: game.Human(1), Black: game.Human(2), Status: game.Active,
		Start: start, Position: start.Play(e4), Ply: 1,
		Moves:     []game.MoveRecord{{Move: e4, At: game.InstantOf(at)}},
		Clocks:    game.Clocks{Timed: true, White: time.Minute, Black: 50 * time.Second, Running: true, Side: chess.Black, At: at},
		DrawOffer: true, DrawOfferBy: chess.White,
	}
	stamp := game.Stamp{Ply: 1, Time: at}
	sig := voice.Signal{Kind: voice.Listen}
	for _, tc := range []struct {
		name string
		in   game.Event
		want game.Event
	}{
		{"move", game.Moved{Stamp: stamp}, changed{Stamp: stamp}},
		{"chat", play.ChatPosted{Stamp: stamp, From: chess.Black}, play.ChatPosted{Stamp: stamp, From: chess.Black}},
		{"voice", play.VoiceSignalled{Stamp: stamp, From: chess.White, Signal: sig}, play.VoiceSignalled{Stamp: stamp, From: chess.White, Signal: sig}},
		{"snapshot alone", nil, nil},
	} {
		got := roundTrip(t, eventMsg{Event: play.Event{GameID: 7, Payload: tc.in}, Snapshot: snap})
		if got.Event.GameID != 7 || got.Event.Payload != tc.want {
			t.Errorf("%s: event %#v, want %#v", tc.name, got.Event, tc.want)
		}
		g := got.Snapshot
		if g.Ply != 1 || g.Position.FEN() != snap.Position.FEN() || g.Start.FEN() != start.FEN() ||
			len(g.Moves) != 1 || g.Moves[0].Move != e4 || g.White != snap.White || g.Clocks != snap.Clocks ||
			!g.DrawOffer || g.DrawOfferBy != chess.White || g.Status != game.Active {
			t.Errorf("%s: snapshot\n%+v\nwant\n%+v", tc.name, g, snap)
		}
	}
}
