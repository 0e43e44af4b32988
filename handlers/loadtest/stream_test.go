package loadtest

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestStreamParse feeds the parser a stream framed as handlers/sse.go
// frames it: only complete game events count, by their id.
func TestStreamParse(t *testing.T) {
	long := strings.Repeat("x", 40<<10) // longer than the reader's buffer
	tests := []struct {
		name   string
		stream string
		want   int // the ply seen; -1 for none
	}{
		{"first snapshot", "id: 0\nevent: game\ndata: <div>\ndata: </div>\n\n", 0},
		{"several, in order", "id: 0\nevent: game\ndata: a\n\nid: 1\nevent: game\ndata: b\n\nid: 2\nevent: game\ndata: c\n\n", 2},
		{"CRLF lines", "id: 4\r\nevent: game\r\ndata: a\r\n\r\n", 4},
		{"no space after the colon", "id:5\nevent:game\ndata:a\n\n", 5},
		{"event before id", "event: game\nid: 6\ndata: a\n\n", 6},
		{"heartbeat comments", ": ping\n\nid: 1\nevent: game\ndata: a\n\n: ping\n\n", 1},
		{"other events", "id: 3\nevent: clock-w\ndata: 1\n\nevent: lag-ping\ndata: n\n\n", -1},
		{"game without id", "event: game\ndata: a\n\n", -1},
		{"id not a number", "id: x\nevent: game\ndata: a\n\n", -1},
		{"unfinished event", "id: 0\nevent: game\ndata: a\n\nid: 1\nevent: game\ndata: b\n", 0},
		{"an older ply later", "id: 3\nevent: game\ndata: a\n\nid: 2\nevent: game\ndata: a\n\n", 3},
		{"a long data line", "id: 7\nevent: game\ndata: " + long + "\ndata: " + long + long + "\n\n", 7},
		{"fields reset after each event", "id: 8\nevent: clock-b\n\nevent: game\ndata: a\n\n", -1},
		{"moves as deltas", "id: 2\nevent: game\ndata: a\n\nid: 3\nevent: move\ndata: b\n\n", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newGameStream()
			err := s.parse(strings.NewReader(tc.stream))
			if !errors.Is(err, io.EOF) {
				t.Errorf("parse = %v, want the end of the stream", err)
			}
			if s.ply != tc.want {
				t.Errorf("ply %d, want %d", s.ply, tc.want)
			}
		})
	}
}

// TestStreamKeepsPings: the stream keeps the nonce of the latest lag ping
// for the player's next move, which takes it once, with the time it was
// kept; other events' data is not a ping.
func TestStreamKeepsPings(t *testing.T) {
	stream := "event: lag-ping\ndata: k3x9\n\n" +
		"id: 1\nevent: move\ndata: k3x9-not-a-ping\n\n" +
		"event: lag-ping\r\ndata:zz1\r\n\r\n" +
		"event: lag-ping\ndata: \n\n" + // no nonce: nothing to keep
		"event: clock-white\ndata: 5\n\n" +
		"event: lag-ping\ndata: unfinished\n"
	s := newGameStream()
	arrived := time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return arrived }
	if err := s.parse(strings.NewReader(stream)); !errors.Is(err, io.EOF) {
		t.Errorf("parse = %v, want the end of the stream", err)
	}
	nonce, held := s.takePing(arrived.Add(1500 * time.Millisecond))
	if nonce != "zz1" || held != 1500*time.Millisecond {
		t.Errorf("takePing = %q held %v, want the latest, zz1, held 1.5s", nonce, held)
	}
	if nonce, _ := s.takePing(arrived.Add(2 * time.Second)); nonce != "" {
		t.Errorf("a second takePing = %q, want nothing: each ping goes back once", nonce)
	}
}

// TestStreamSizes: the size of every move event but a stream's first
// whole panel, whole panels and deltas apart, long lines and CRLF
// included; other events are not counted.
func TestStreamSizes(t *testing.T) {
	long := strings.Repeat("x", 40<<10)
	stream := "id: 0\nevent: game\ndata: first\n\n" + // the snapshot: not counted
		": ping\n\nid: 1\nevent: move\ndata: ab\n\n" +
		"event: clock-white\ndata: c\n\n" +
		"id: 2\r\nevent: game\r\ndata: " + long + "\r\n\r\n"
	type size struct {
		bytes int
		delta bool
	}
	var got []size
	s := newGameStream()
	s.sizes = func(n int, delta bool) { got = append(got, size{n, delta}) }
	if err := s.parse(strings.NewReader(stream)); !errors.Is(err, io.EOF) {
		t.Fatalf("parse = %v", err)
	}
	want := []size{
		{len("id: 1\nevent: move\ndata: ab\n\n"), true},
		{len("id: 2\r\nevent: game\r\ndata: " + long + "\r\n\r\n"), false},
	}
	if !slices.Equal(got, want) {
		t.Errorf("sizes %v, want %v", got, want)
	}

	// A stream opened with the key of the panel its page shows begins
	// with the next move: counted.
	got = nil
	if err := s.parse(strings.NewReader("id: 1\nevent: move\ndata: ab\n\n")); !errors.Is(err, io.EOF) {
		t.Fatalf("parse = %v", err)
	}
	if want := []size{{len("id: 1\nevent: move\ndata: ab\n\n"), true}}; !slices.Equal(got, want) {
		t.Errorf("sizes of a stream beginning with a move %v, want %v", got, want)
	}
}

func TestTrimLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"id: 3\n", "id: 3"},
		{"id: 3\r\n", "id: 3"},
		{"\n", ""},
		{"data: " + strings.Repeat("y", 100) + "\n", "data: " + strings.Repeat("y", 58)},
	}
	for _, tc := range tests {
		if got := string(trimLine([]byte(tc.in))); got != tc.want {
			t.Errorf("trimLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestStreamWait: wait returns the arrival time of the first event of the
// wanted ply or later, and gives up after its timeout or with ctx.
func TestStreamWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newGameStream()
		start := time.Now()
		go func() {
			time.Sleep(time.Second)
			s.seen(1, time.Now())
			time.Sleep(time.Second)
			s.seen(3, time.Now())
		}()
		at, err := s.wait(t.Context(), 2, 5*time.Second)
		if err != nil || at.Sub(start) != 2*time.Second {
			t.Errorf("wait(2) = %v after start, %v; want ply 3's arrival, 2s", at.Sub(start), err)
		}
		at, err = s.wait(t.Context(), 0, time.Second)
		if err != nil || at.Sub(start) != 2*time.Second {
			t.Errorf("wait(0) after ply 3 = %v, %v; want ply 3's arrival at once", at.Sub(start), err)
		}

		if _, err := s.wait(t.Context(), 4, 5*time.Second); !errors.Is(err, errNoEvent) || time.Since(start) != 7*time.Second {
			t.Errorf("wait(4) = %v after %v, want errNoEvent after the 5s timeout", err, time.Since(start)-2*time.Second)
		}

		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(time.Second, cancel)
		if _, err := s.wait(ctx, 4, time.Minute); !errors.Is(err, context.Canceled) {
			t.Errorf("wait with ctx cancelled = %v, want context.Canceled", err)
		}
	})
}

// TestStreamWaitOpen: a stream that sends no first event (its page shows
// the panel already) is open once the server answers its request.
func TestStreamWaitOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newGameStream()
		if _, err := s.wait(t.Context(), waitOpen, time.Second); !errors.Is(err, errNoEvent) {
			t.Errorf("wait(open) before the answer = %v, want errNoEvent", err)
		}
		start := time.Now()
		time.AfterFunc(time.Second, s.markOpen)
		if at, err := s.wait(t.Context(), waitOpen, 5*time.Second); err != nil || at.Sub(start) != time.Second {
			t.Errorf("wait(open) = %v after start, %v; want the answer's, 1s", at.Sub(start), err)
		}
		if _, err := s.wait(t.Context(), 0, time.Second); !errors.Is(err, errNoEvent) {
			t.Errorf("wait(0) with the stream open and no event = %v, want errNoEvent", err)
		}
	})
}
