package main

import (
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestBusFeedKeepsNewest: a stream from the bus keeps the newest snapshot
// whatever order the messages come in: a later ply, or at the same ply the
// one its owner took later; a new owner's message always holds.
func TestBusFeedKeepsNewest(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	msg := func(node string, ply int, taken time.Time, offer bool) gameMsg {
		return gameMsg{Node: node, Taken: taken, Msg: play.Message{Snapshot: play.Snapshot{Ply: ply, DrawOffer: offer}}}
	}
	f := &busFeed{}
	for _, step := range []struct {
		g         gameMsg
		wantPly   int
		wantOffer bool
	}{
		{msg("a", 2, t0, true), 2, true},                      // the first snapshot
		{msg("a", 2, t0.Add(-time.Second), false), 2, true},   // taken before it: stale
		{msg("a", 1, t0.Add(time.Second), false), 2, true},    // an earlier ply: stale
		{msg("a", 2, t0.Add(time.Second), false), 2, false},   // the offer declined since
		{msg("a", 3, t0.Add(2*time.Second), false), 3, false}, // a move
		{msg("b", 3, t0.Add(-time.Hour), true), 3, true},      // a new owner, its own clock
		{msg("b", 3, t0.Add(-2*time.Hour), false), 3, true},   // and then stale by its clock
	} {
		f.take(step.g)
		if got := f.msg.Msg.Snapshot; got.Ply != step.wantPly || got.DrawOffer != step.wantOffer {
			t.Fatalf("after %+v: ply %d offer %v; want ply %d offer %v", step.g, got.Ply, got.DrawOffer, step.wantPly, step.wantOffer)
		}
	}
}

// TestRunClock: between events, the side to move's clock runs on from the
// last snapshot, down to zero; a stopped clock, an untimed game or one
// that is over stays as it was.
func TestRunClock(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	c := game.Clocks{Timed: true, White: 10 * time.Second, Black: 20 * time.Second, Running: true, Side: chess.Black, At: at}
	got := runClock(c, game.Active, 3*time.Second)
	if got.White != 10*time.Second || got.Black != 17*time.Second || !got.At.Equal(at.Add(3*time.Second)) {
		t.Errorf("Black's clock after 3 s: %+v", got)
	}
	if got := runClock(c, game.Active, time.Minute); got.Black != 0 {
		t.Errorf("Black's clock after a minute: %v, want 0", got.Black)
	}
	for _, tc := range []struct {
		name   string
		c      game.Clocks
		status game.Status
	}{
		{"stopped", game.Clocks{Timed: true, White: time.Second, Black: time.Second, Side: chess.White}, game.Active},
		{"untimed", game.Clocks{Running: true}, game.Active},
		{"over", c, game.Finished},
	} {
		if got := runClock(tc.c, tc.status, time.Second); got != tc.c {
			t.Errorf("%s: %+v, want it unchanged", tc.name, got)
		}
	}
}
