package handlers

import (
	"context"
	"html"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/views"
)

// pageStreamQuery returns the query of the event stream that the game
// page, as p (nil for a guest) loads it, opens: deltas, and the key of
// the panel the page shows (views.GameView.ShownQuery).
func (rig *streamRig) pageStreamQuery(t *testing.T, p *player) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, rig.srv.URL+"/games/"+strconv.FormatInt(rig.id, 10), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p != nil {
		req.AddCookie(p.cookie)
	}
	resp, err := rig.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`sse-connect="[^"?]*(\?[^"]*)"`).FindSubmatch(body)
	if m == nil {
		t.Fatalf("the game page has no stream:\n%s", body)
	}
	query := html.UnescapeString(string(m[1]))
	if !strings.Contains(query, "&shown=") {
		t.Fatalf("the stream's query %q does not say what the page shows", query)
	}
	return query
}

// TestStreamSkipsThePanelThePageShows: the first stream of a game page
// (its URL's shown=, no Last-Event-ID) sends no first panel while the
// game still shows the viewer what the page was drawn with; the next move
// comes as a delta. A stream that resumes after events, or whose page
// was drawn before a move it has not seen, gets the whole panel, as does
// a page in another language than the stream's.
func TestStreamSkipsThePanelThePageShows(t *testing.T) {
	rig := newStreamRig(t, func(c *Config) { c.Heartbeat, c.ClockSync = time.Hour, time.Hour })
	ctx := context.Background()
	whiteQuery, guestQuery := rig.pageStreamQuery(t, &rig.white), rig.pageStreamQuery(t, nil)
	white, guest := rig.open(t, &rig.white, whiteQuery), rig.open(t, nil, guestQuery)
	resumed := rig.resume(t, &rig.white, whiteQuery, "0")
	otherLanguage := rig.open(t, nil, guestQuery+"&lang=tr")
	// The streams are open once the whole panels are in: the first
	// two get none, which a move's delta cannot show before it comes.
	waitPanels := func(s *tally, ids ...string) {
		t.Helper()
		for deadline := time.Now().Add(sseTimeout); !slices.Equal(s.panels(), ids); time.Sleep(2 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("a stream has events %v, want %v", s.panels(), ids)
			}
		}
	}
	waitPanels(resumed, "0")
	waitPanels(otherLanguage, "0")
	resumed.mu.Lock()
	t.Logf("the whole panel a page's first stream no longer sends: %d bytes (White's, uncompressed)", resumed.bytes[views.EventGame])
	resumed.mu.Unlock()
	if err := rig.games.Move(ctx, rig.id, rig.white.ID, "e2e4", chess.English, 0); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*tally{"White's": white, "the guest's": guest} {
		waitPanels(s, "1")
		s.mu.Lock()
		if s.events[views.EventGame] != 0 || len(s.moveBytes) != 1 {
			t.Errorf("%s first stream: %d whole panels and %d deltas, want the move's delta alone", name, s.events[views.EventGame], len(s.moveBytes))
		}
		s.mu.Unlock()
	}
	waitPanels(resumed, "0", "1")
	waitPanels(otherLanguage, "0", "1")

	// The page drawn before the move, its stream opened after it.
	stale := rig.open(t, &rig.white, whiteQuery)
	waitPanels(stale, "1")
	stale.mu.Lock()
	if stale.events[views.EventGame] != 1 {
		t.Errorf("a stream of a page drawn before the move: %v, want the whole panel", stale.events)
	}
	stale.mu.Unlock()
}
