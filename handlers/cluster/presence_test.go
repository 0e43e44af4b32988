package cluster

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestPresences: the owner counts a player's stream on another node once
// when it opens, not again when it is renewed, lets it go when it closes
// or is not renewed within presenceLapse, and forgets one whose opening
// the game refused.
func TestPresences(t *testing.T) {
	ctx := t.Context()
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	games := newFakeGames()
	p := newPresences(games)
	open := func(stream string, user int64, now time.Time) {
		t.Helper()
		if err := p.apply(ctx, presenceRequest{Game: 7, User: user, Stream: stream, Connected: true}, now); err != nil {
			t.Fatalf("open %s: %v", stream, err)
		}
	}
	closed := func(stream string) {
		t.Helper()
		if err := p.apply(ctx, presenceRequest{Game: 7, Stream: stream}, t0); err != nil {
			t.Fatalf("close %s: %v", stream, err)
		}
	}

	open("s1", 1, t0)
	open("s1", 1, t0.Add(presenceRenew)) // renewed: not counted again
	open("s2", 2, t0)
	closed("s2")
	closed("s3")                                       // never opened here: nothing to tell
	p.lapse(t0.Add(presenceRenew + presenceLapse))     // s1 was renewed in time
	p.lapse(t0.Add(presenceRenew + presenceLapse + 1)) // and now it lapses
	p.lapse(t0.Add(time.Hour))                         // once
	want := []presenceCall{{7, 1, true}, {7, 2, true}, {7, 2, false}, {7, 1, false}}
	if got := games.presenceCalls(); !slices.Equal(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}

	// A refused opening is forgotten: its renewal is another opening.
	refused := errors.New("refused")
	games.connectErr = refused
	if err := p.apply(ctx, presenceRequest{Game: 7, User: 1, Stream: "s4", Connected: true}, t0); !errors.Is(err, refused) {
		t.Fatalf("refused opening: %v, want %v", err, refused)
	}
	games.connectErr = nil
	open("s4", 1, t0)
	if got := games.presenceCalls(); len(got) != len(want)+1 || got[len(want)] != (presenceCall{7, 1, true}) {
		t.Errorf("after a refused opening and its renewal: %v", got)
	}
}

// TestPresencesConcurrent: requests and lapses from many goroutines at
// once (run with -race) leave each stream counted once and let go once.
func TestPresencesConcurrent(t *testing.T) {
	ctx := t.Context()
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	games := newFakeGames()
	p := newPresences(games)
	var wg sync.WaitGroup
	for i := range 20 {
		stream := string(rune('a' + i))
		wg.Go(func() {
			for range 10 {
				if err := p.apply(ctx, presenceRequest{Game: 7, User: int64(i), Stream: stream, Connected: true}, t0); err != nil {
					t.Error(err)
				}
			}
		})
		wg.Go(func() { p.lapse(t0) })
	}
	wg.Wait()
	p.lapse(t0.Add(presenceLapse + 1))
	on, off := 0, 0
	for _, c := range games.presenceCalls() {
		if c.on {
			on++
		} else {
			off++
		}
	}
	if on != 20 || off != 20 {
		t.Errorf("%d openings and %d closings, want 20 and 20", on, off)
	}
}

// TestPresencesRun: the lapse loop stops when done is closed.
func TestPresencesRun(t *testing.T) {
	p := newPresences(newFakeGames())
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() { p.run(done); close(stopped) }()
	close(done)
	select {
	case <-stopped:
	case <-time.After(time.Second):
		t.Fatal("run did not stop")
	}
}
