package play

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/voice"
)

// relayed collects what a Service gives Config.Relay, through the wire.
type relayed struct {
	mu   sync.Mutex
	msgs []Message
	err  error
}

func (r *relayed) relay(e Event, after Snapshot) {
	r.mu.Lock()
	defer r.mu.Unlock()
	data, err := json.Marshal(Message{Event: e, Snapshot: after})
	var m Message
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil {
		r.err = err
		return
	}
	r.msgs = append(r.msgs, m)
}

func (r *relayed) last(t *testing.T) Message {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.msgs) == 0 {
		t.Fatal("nothing relayed")
	}
	return r.msgs[len(r.msgs)-1]
}

// TestRelayCarriesSnapshots: each event of a game is relayed with the
// snapshot after it, and comes out of the wire with the same state: the
// position after a move, a draw offer, chat and voice signals with their
// sides, the rematch offer of a finished game.
func TestRelayCarriesSnapshots(t *testing.T) {
	r := &relayed{}
	s := New(Config{Store: newMemStore(), Relay: r.relay, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer s.Close()
	ctx := context.Background()
	id, white, black := privateGame(t, s, "5+0")

	if err := s.Move(ctx, id, white, "e4", chess.English, 0); err != nil {
		t.Fatal(err)
	}
	m := r.last(t)
	want, err := s.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Event.Payload.(Relayed); !ok || m.Event.GameID != id || m.Event.ID() != 1 {
		t.Errorf("after a move: %#v, want Relayed at ply 1 of game %d", m.Event, id)
	}
	got := m.Snapshot
	if got.Ply != 1 || got.Position.FEN() != want.Position.FEN() || got.Start.FEN() != want.Start.FEN() ||
		len(got.Moves) != 1 || got.Moves[0].Move != want.Moves[0].Move || got.White != want.White ||
		got.Control != want.Control || got.Status != game.Active || !got.Clocks.Timed || got.Clocks.Running ||
		got.FirstMoveBy.IsZero() || !got.FirstMoveBy.Equal(want.FirstMoveBy) {
		// The clocks wait for Black's first move, due by FirstMoveBy.
		t.Errorf("relayed snapshot after e4:\n%+v\nwant\n%+v", got, want)
	}

	if err := s.Move(ctx, id, black, "e5", chess.English, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.OfferDraw(ctx, id, white); err != nil {
		t.Fatal(err)
	}
	if m := r.last(t); !m.Snapshot.DrawOffer || m.Snapshot.DrawOfferBy != chess.White || m.Snapshot.Ply != 2 {
		t.Errorf("after White's draw offer: offer %v by %v at ply %d", m.Snapshot.DrawOffer, m.Snapshot.DrawOfferBy, m.Snapshot.Ply)
	}

	if err := s.Chat(ctx, id, black, "iyi oyunlar"); err != nil {
		t.Fatal(err)
	}
	if p, ok := r.last(t).Event.Payload.(ChatPosted); !ok || p.From != chess.Black {
		t.Errorf("after Black's chat: %#v", r.last(t).Event.Payload)
	}
	sig := voice.Signal{Kind: voice.Listen}
	if err := s.Signal(ctx, id, white, sig); err != nil {
		t.Fatal(err)
	}
	if p, ok := r.last(t).Event.Payload.(VoiceSignalled); !ok || p.From != chess.White || p.Signal != sig {
		t.Errorf("after White's voice signal: %#v", r.last(t).Event.Payload)
	}

	if err := s.Resign(ctx, id, white); err != nil {
		t.Fatal(err)
	}
	if want, err = s.Game(ctx, id); err != nil {
		t.Fatal(err)
	}
	if m := r.last(t); !m.Snapshot.Status.Over() || m.Snapshot.Outcome != want.Outcome {
		t.Errorf("after the resignation: %v %+v", m.Snapshot.Status, m.Snapshot.Outcome)
	}
	if _, err := s.Rematch(ctx, id, black); err != nil {
		t.Fatal(err)
	}
	if m := r.last(t); !m.Snapshot.RematchOffer[chess.Black] {
		t.Errorf("after Black's rematch offer: %v", m.Snapshot.RematchOffer)
	}
}
