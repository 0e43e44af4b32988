package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/views"
)

// deltaLine is a game with every kind of move a delta must carry: en
// passant (exf6), captures, a promotion with capture (gxh8=Q), castling on
// both sides, a check and the king taking back; Black's captures while
// White leads change both sides' material (Rxf8, Kxd7: Black's pieces
// taken and White's lead), and the abort rule's end changes the player's
// buttons (ply 4).
var deltaLine = strings.Fields("e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 f6g7 b8c6 g7h8q c8d7 g1f3 d8e7 f1e2 e8c8 e1g1 g8f6 h8f8 d8f8 e2b5 c6d4 b5d7 c8d7")

// TestMoveDeltaBytes: on streams that ask for deltas (the game page's),
// every move, the first two included, goes out as a delta, not a whole
// panel, to a player (White) and a spectator; their sizes are logged, and
// every delta, the largest included, must stay under 1 KB for both. A
// stream that does not ask, or asks for deltas of an older form, gets
// whole panels.
func TestMoveDeltaBytes(t *testing.T) {
	rig := newStreamRig(t, func(c *Config) { c.Heartbeat, c.ClockSync = time.Hour, time.Hour })
	games, id, white, black := rig.games, rig.id, rig.white, rig.black
	ctx := context.Background()
	open := func(p *player, query string) *tally { return rig.open(t, p, query) }
	player, spectator, whole, older := open(&white, "?"+views.DeltaQuery), open(nil, "?"+views.DeltaQuery), open(nil, ""), open(nil, "?delta=1")
	streams := []*tally{player, spectator, whole, older}
	wait := func(ply int) {
		t.Helper()
		deadline := time.Now().Add(sseTimeout)
		for _, s := range streams {
			for !slices.Contains(s.panels(), strconv.Itoa(ply)) {
				if time.Now().After(deadline) {
					t.Fatalf("a stream has panels %v, want ply %d", s.panels(), ply)
				}
				time.Sleep(2 * time.Millisecond)
			}
		}
	}
	wait(0)
	for ply, mv := range deltaLine {
		mover := white
		if ply%2 == 1 {
			mover = black
		}
		if err := games.Move(ctx, id, mover.ID, mv, chess.English, ply); err != nil {
			t.Fatalf("move %d %s: %v", ply+1, mv, err)
		}
		wait(ply + 1)
	}

	// Every move is a delta, the first two included (they redraw and
	// then take away the first-move countdown).
	wantDeltas := len(deltaLine)
	for name, s := range map[string]*tally{"player": player, "spectator": spectator} {
		s.mu.Lock()
		sizes := slices.Clone(s.moveBytes)
		s.mu.Unlock()
		if len(sizes) != wantDeltas {
			t.Errorf("%s: %d moves as deltas, want %d (panel ids %v, events %v)", name, len(sizes), wantDeltas, s.panels(), s.events)
			continue
		}
		sorted := slices.Sorted(slices.Values(sizes))
		median, largest := sorted[len(sorted)/2], sorted[len(sorted)-1]
		t.Logf("%s: %d deltas, median %d bytes, max %d bytes, each %v", name, len(sizes), median, largest, sizes)
		// Every move, captures on both sides, castling and the buttons
		// changing at the abort rule's end included, stays under 1 KB.
		if largest >= 1024 {
			t.Errorf("%s: largest delta %d bytes, want under 1 KB (each %v)", name, largest, sizes)
		}
	}
	for query, s := range map[string]*tally{"": whole, "?delta=1": older} {
		s.mu.Lock()
		if len(s.moveBytes) != 0 || s.events[views.EventGame] != len(deltaLine)+1 {
			t.Errorf("a stream with %q: %d deltas and %d panels, want 0 and %d", query, len(s.moveBytes), s.events[views.EventGame], len(deltaLine)+1)
		}
		s.mu.Unlock()
	}
}

// open reads the game's event stream with query as p (nil for a guest)
// into a tally, until the test ends.
func (rig *streamRig) open(t *testing.T, p *player, query string) *tally {
	t.Helper()
	return rig.resume(t, p, query, "")
}

// resume is open for a stream that resumes after the event lastEventID
// (sent as Last-Event-ID; "" for none).
func (rig *streamRig) resume(t *testing.T, p *player, query, lastEventID string) *tally {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, rig.srv.URL+"/games/"+strconv.FormatInt(rig.id, 10)+"/events"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	if p != nil {
		req.AddCookie(p.cookie)
	}
	resp, err := rig.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET events = %d", resp.StatusCode)
	}
	tl := &tally{bytes: map[string]int{}, events: map[string]int{}}
	done := make(chan struct{})
	go func() { defer close(done); countStream(resp.Body, tl) }()
	t.Cleanup(func() { resp.Body.Close(); <-done })
	return tl
}

// TestGameEndDeltaBytes: the game's end reaches a player and a spectator
// as a delta too, with the mating move or without a move (a
// resignation): no whole panel after the first, and under 1 KB, since
// the page draws the result panel from its own copy of it.
func TestGameEndDeltaBytes(t *testing.T) {
	fools := strings.Fields("f2f3 e7e5 g2g4")
	for _, end := range []string{"mate", "resignation"} {
		t.Run(end, func(t *testing.T) {
			rig := newStreamRig(t, func(c *Config) { c.Heartbeat, c.ClockSync = time.Hour, time.Hour })
			ctx := context.Background()
			player, spectator := rig.open(t, &rig.black, "?"+views.DeltaQuery), rig.open(t, nil, "?"+views.DeltaQuery)
			streams := map[string]*tally{"player": player, "spectator": spectator}
			events := func(s *tally) int {
				s.mu.Lock()
				defer s.mu.Unlock()
				return s.events[views.EventGame] + s.events[views.EventMove]
			}
			wait := func(n int) {
				t.Helper()
				deadline := time.Now().Add(sseTimeout)
				for _, s := range streams {
					for events(s) < n {
						if time.Now().After(deadline) {
							t.Fatalf("a stream has panels %v, want %d events", s.panels(), n)
						}
						time.Sleep(2 * time.Millisecond)
					}
				}
			}
			wait(1)
			for ply, mv := range fools {
				mover := rig.white
				if ply%2 == 1 {
					mover = rig.black
				}
				if err := rig.games.Move(ctx, rig.id, mover.ID, mv, chess.English, ply); err != nil {
					t.Fatalf("move %d %s: %v", ply+1, mv, err)
				}
				wait(ply + 2)
			}
			var err error
			if end == "mate" {
				err = rig.games.Move(ctx, rig.id, rig.black.ID, "d8h4", chess.English, len(fools))
			} else {
				err = rig.games.Resign(ctx, rig.id, rig.white.ID)
			}
			if err != nil {
				t.Fatal(err)
			}
			wait(len(fools) + 2)
			for name, s := range streams {
				s.mu.Lock()
				sizes, panels := slices.Clone(s.moveBytes), s.events[views.EventGame]
				s.mu.Unlock()
				if panels != 1 || len(sizes) != len(fools)+1 {
					t.Errorf("%s: %d whole panels and %d deltas, want the first panel and %d deltas", name, panels, len(sizes), len(fools)+1)
					continue
				}
				last := sizes[len(sizes)-1]
				t.Logf("%s: the end (%s) as a delta of %d bytes; the moves' %v", name, end, last, sizes[:len(sizes)-1])
				if last >= 1024 {
					t.Errorf("%s: the end (%s) as a delta of %d bytes, want under 1 KB", name, end, last)
				}
			}
		})
	}
}
