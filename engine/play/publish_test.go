package play

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/voice"
)

// published collects what a Service gives Config.Cluster to send to the
// other nodes.
type published struct {
	mu     sync.Mutex
	events []Event
	topics []int64
}

func (p *published) Claim(context.Context, int64) error { return nil }

func (p *published) Publish(topic int64, e Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events, p.topics = append(p.events, e), append(p.topics, topic)
}

// last returns the latest event published on a game's topic, with its
// snapshot.
func (p *published) last(t *testing.T) (Event, Snapshot) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.events) - 1; i >= 0; i-- {
		if p.topics[i] != Endings {
			e := p.events[i]
			if e.After == nil {
				t.Fatalf("event %T of game %d published without its snapshot", e.Payload, e.GameID)
			}
			return e, *e.After
		}
	}
	t.Fatal("nothing published")
	return Event{}, Snapshot{}
}

// TestEventsCarrySnapshots: each event of a game is published, on the
// hub and to the cluster, with the snapshot after it: the position after
// a move, a draw offer, chat and voice signals with their sides, the end
// and the rematch offer of a finished game; the mating move and the end
// share one snapshot, so a stream that has shown one has shown both.
func TestEventsCarrySnapshots(t *testing.T) {
	r := &published{}
	s := New(Config{Store: newMemStore(), Cluster: r, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer s.Close()
	ctx := context.Background()
	id, white, black := privateGame(t, s, "5+0")

	if err := s.Move(ctx, id, white, "e4", chess.English, 0); err != nil {
		t.Fatal(err)
	}
	ev, got := r.last(t)
	want, err := s.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ev.Payload.(game.Moved); !ok || ev.GameID != id || ev.ID() != 1 {
		t.Errorf("after a move: %#v, want game.Moved at ply 1 of game %d", ev, id)
	}
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
	if _, m := r.last(t); !m.DrawOffer || m.DrawOfferBy != chess.White || m.Ply != 2 {
		t.Errorf("after White's draw offer: offer %v by %v at ply %d", m.DrawOffer, m.DrawOfferBy, m.Ply)
	}

	if err := s.Chat(ctx, id, black, "iyi oyunlar"); err != nil {
		t.Fatal(err)
	}
	if ev, _ := r.last(t); ev.Payload != (ChatPosted{Stamp: ev.Payload.EventStamp(), From: chess.Black}) {
		t.Errorf("after Black's chat: %#v", ev.Payload)
	}
	sig := voice.Signal{Kind: voice.Listen}
	if err := s.Signal(ctx, id, white, sig); err != nil {
		t.Fatal(err)
	}
	if ev, _ := r.last(t); ev.Payload != (VoiceSignalled{Stamp: ev.Payload.EventStamp(), From: chess.White, Signal: sig}) {
		t.Errorf("after White's voice signal: %#v", ev.Payload)
	}

	if err := s.Resign(ctx, id, white); err != nil {
		t.Fatal(err)
	}
	if want, err = s.Game(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, m := r.last(t); !m.Status.Over() || m.Outcome != want.Outcome {
		t.Errorf("after the resignation: %v %+v", m.Status, m.Outcome)
	}
	if _, err := s.Rematch(ctx, id, black); err != nil {
		t.Fatal(err)
	}
	if _, m := r.last(t); !m.RematchOffer[chess.Black] {
		t.Errorf("after Black's rematch offer: %v", m.RematchOffer)
	}
}

// TestMateAndEndShareSnapshot: the mating move and the game's end are two
// events of one change, published with one snapshot that already shows
// the end, so that a stream renders the final position once.
func TestMateAndEndShareSnapshot(t *testing.T) {
	s := New(Config{Store: newMemStore(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer s.Close()
	ctx := context.Background()
	id, white, black := privateGame(t, s, "5+0")
	sub := s.Subscribe(id)
	defer sub.Close()
	for ply, san := range []string{"f3", "e5", "g4", "Qh4#"} {
		user := white
		if ply%2 == 1 {
			user = black
		}
		if err := s.Move(ctx, id, user, san, chess.English, ply); err != nil {
			t.Fatal(err)
		}
	}
	var mate, end Event
	for end.Payload == nil {
		ev := *<-sub.C()
		switch ev.Payload.(type) {
		case game.Moved:
			mate = ev
		case game.Ended:
			end = ev
		}
	}
	if mate.ID() != 4 || mate.After == nil || mate.After != end.After {
		t.Fatalf("mate %#v and end %#v: want ply 4 sharing one snapshot", mate, end)
	}
	if got := mate.After; got.Ply != 4 || !got.Status.Over() || got.Outcome.Side != chess.White {
		t.Errorf("snapshot with the mate: ply %d, status %v, outcome %+v", got.Ply, got.Status, got.Outcome)
	}
}

// TestSharedSnapshot: the streams of a live game share one snapshot, the
// one its writer published last, instead of a copy each; a finished game
// gives a fresh one.
func TestSharedSnapshot(t *testing.T) {
	s := New(Config{Store: newMemStore(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer s.Close()
	ctx := context.Background()
	id, white, black := privateGame(t, s, "5+0")
	sub := s.Subscribe(id)
	defer sub.Close()
	a, err := s.Shared(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := s.Shared(ctx, id); b != a {
		t.Error("two streams of an unchanged game got two snapshots")
	}
	if err := s.Move(ctx, id, white, "e4", chess.English, 0); err != nil {
		t.Fatal(err)
	}
	var moved Event
	for moved.Payload == nil {
		if ev := *<-sub.C(); ev.ID() == 1 {
			moved = ev
		}
	}
	if got, _ := s.Shared(ctx, id); got != moved.After || got.Ply != 1 {
		t.Errorf("after e4: Shared %p at ply %d, want the published %p", got, got.Ply, moved.After)
	}
	if err := s.Resign(ctx, id, black); err != nil {
		t.Fatal(err)
	}
	over, err := s.Shared(ctx, id)
	if err != nil || !over.Status.Over() {
		t.Fatalf("after the resignation: %+v, %v", over, err)
	}
}
