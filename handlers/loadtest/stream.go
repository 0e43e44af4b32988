package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"satranc/views"
)

// gameStream is one player's event stream of a game, read as the game
// page's EventSource reads it (asking for moves as deltas): it remembers
// the highest ply announced by a complete game event (views.EventGame or
// views.EventMove, whose id is the ply) and when that event arrived, and
// gives the size of each later one to sizes, if set.
type gameStream struct {
	mu     sync.Mutex
	ply    int       // highest ply seen; -1 before the first event
	at     time.Time // when ply was first seen
	opened bool      // the server answered a request of the stream
	notify chan struct{}
	now    func() time.Time // the arrival time of an event
	sizes  func(size int, delta bool)
	// ping is the latest lag ping's nonce (a player's stream) and when it
	// arrived, kept for the player's next move (takePing), as the game page
	// keeps it (static/js/board.js); "" once taken.
	ping   string
	pingAt time.Time
	// first is the URL the stream opens first, as its page names it
	// (page.stream: it says which panel the page shows already); "" or
	// a reconnect opens the game's stream asking for deltas alone, as
	// the page does once its first stream is gone (static/js/board.js).
	first string
}

func newGameStream() *gameStream {
	return &gameStream{ply: -1, notify: make(chan struct{}, 1), now: time.Now}
}

// run reads the stream of gamePath as u until ctx is done, reconnecting
// when the server ends it, as EventSource does; each unexpected end is
// reported to fail.
func (s *gameStream) run(ctx context.Context, u *user, gamePath string, fail func(kind string)) {
	for ctx.Err() == nil {
		target := u.base + gamePath + "/events?" + views.DeltaQuery
		if s.first != "" {
			target, s.first = u.base+s.first, ""
		}
		err := s.read(ctx, u, target)
		if ctx.Err() != nil {
			return
		}
		fail(errorKind(err, "stream"))
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// read opens the stream at target once and parses its events until it
// ends.
func (s *gameStream) read(ctx context.Context, u *user, target string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return fmt.Errorf("stream: %w", err)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := u.streams.Do(req)
	if err != nil {
		return fmt.Errorf("stream: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &statusError{"stream", resp.StatusCode}
	}
	s.markOpen()
	return s.parse(resp.Body)
}

// parse reads server-sent events from r until it fails or ends (always an
// error, io.EOF included: a stream is meant to stay open), recording each
// complete game event by its id, the ply.
func (s *gameStream) parse(r io.Reader) error {
	// Thousands of streams are read at once: each line is looked at in the
	// reader's buffer, and long data lines, whose content the driver does
	// not need, are skipped without being gathered; a small buffer is
	// enough (4 KB: 40 MB for 10,000 streams, instead of 160 at 16 KB).
	br := bufio.NewReaderSize(r, 4<<10)
	id, event, ping := "", "", ""
	size, first := 0, true // the bytes of the event so far; the stream's first event
	inLong := false        // within a line longer than the buffer
	for {
		line, err := br.ReadSlice('\n')
		size += len(line)
		if errors.Is(err, bufio.ErrBufferFull) {
			inLong = true
			continue
		}
		if err != nil {
			return fmt.Errorf("stream: %w", err)
		}
		if inLong {
			inLong = false // the rest of the long line
			continue
		}
		text := trimLine(line)
		switch {
		case len(text) == 0: // the end of an event: dispatch it
			if (event == views.EventGame || event == views.EventMove) && id != "" {
				if ply, err := strconv.Atoi(id); err == nil {
					s.seen(ply, s.now())
				}
				// A stream's first panel is the page's snapshot, not a move.
				if !(first && event == views.EventGame) && s.sizes != nil {
					s.sizes(size, event == views.EventMove)
				}
				first = false
			}
			if event == views.EventLagPing && ping != "" {
				s.keepPing(ping, s.now())
			}
			id, event, ping, size = "", "", "", 0
		case event == views.EventLagPing && bytes.HasPrefix(text, []byte("data:")):
			// The server names the event before its data.
			ping = string(bytes.TrimSpace(text[5:]))
		case bytes.HasPrefix(text, []byte("id:")):
			id = string(bytes.TrimSpace(text[3:]))
		case bytes.HasPrefix(text, []byte("event:")):
			event = string(bytes.TrimSpace(text[6:]))
		}
	}
}

// trimLine drops the newline of a line read by ReadSlice; data lines are
// not converted to strings beyond their first bytes.
func trimLine(line []byte) []byte {
	if len(line) > 64 {
		line = line[:64] // id: and event: lines are short; data is skipped
	}
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return line
}

// seen records a game event of ply arriving at t.
func (s *gameStream) seen(ply int, t time.Time) {
	s.mu.Lock()
	if ply > s.ply {
		s.ply, s.at = ply, t
	}
	s.mu.Unlock()
	s.wake()
}

// keepPing keeps the nonce of a lag ping that arrived at t, in place of an
// older one not yet taken.
func (s *gameStream) keepPing(nonce string, t time.Time) {
	s.mu.Lock()
	s.ping, s.pingAt = nonce, t
	s.mu.Unlock()
}

// takePing returns the nonce of the latest lag ping and how long it was
// kept until now, for a move to carry; "" if none came since the last was
// taken.
func (s *gameStream) takePing(now time.Time) (string, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	nonce, held := s.ping, now.Sub(s.pingAt)
	s.ping = ""
	return nonce, held
}

// markOpen records that the server answered a request of the stream.
func (s *gameStream) markOpen() {
	s.mu.Lock()
	s.opened = true
	s.mu.Unlock()
	s.wake()
}

// wake tells wait to look again.
func (s *gameStream) wake() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// waitOpen is the ply wait waits for to see the stream open: a page's
// first stream sends no panel the page shows already.
const waitOpen = -1

// errNoEvent is returned by wait when the expected event does not come.
var errNoEvent = errors.New("no event")

// wait returns when an event of ply want or later arrived, with the time it
// arrived, or an error after timeout or when ctx is done. A want of
// waitOpen returns once the server has answered the stream's request,
// with the time wait saw it.
func (s *gameStream) wait(ctx context.Context, want int, timeout time.Duration) (time.Time, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		ply, at, opened := s.ply, s.at, s.opened
		s.mu.Unlock()
		if want == waitOpen && opened {
			return s.now(), nil
		}
		if want != waitOpen && ply >= want {
			return at, nil
		}
		select {
		case <-s.notify:
		case <-timer.C:
			return time.Time{}, fmt.Errorf("ply %d: %w", want, errNoEvent)
		case <-ctx.Done():
			return time.Time{}, fmt.Errorf("ply %d: %w", want, ctx.Err())
		}
	}
}
