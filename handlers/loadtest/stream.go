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
	notify chan struct{}
	now    func() time.Time // the arrival time of an event
	sizes  func(size int, delta bool)
}

func newGameStream() *gameStream {
	return &gameStream{ply: -1, notify: make(chan struct{}, 1), now: time.Now}
}

// run reads the stream of gamePath as u until ctx is done, reconnecting
// when the server ends it, as EventSource does; each unexpected end is
// reported to fail.
func (s *gameStream) run(ctx context.Context, u *user, gamePath string, fail func(kind string)) {
	for ctx.Err() == nil {
		err := s.read(ctx, u, gamePath)
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

// read opens the stream once and parses its events until it ends.
func (s *gameStream) read(ctx context.Context, u *user, gamePath string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.base+gamePath+"/events?"+views.DeltaQuery, nil)
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
	id, event := "", ""
	size, first := 0, true // the bytes of the event so far; the first event
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
				if !first && s.sizes != nil {
					s.sizes(size, event == views.EventMove)
				}
				first = false
			}
			id, event, size = "", "", 0
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
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// errNoEvent is returned by wait when the expected event does not come.
var errNoEvent = errors.New("no event")

// wait returns when an event of ply want or later arrived, with the time it
// arrived, or an error after timeout or when ctx is done.
func (s *gameStream) wait(ctx context.Context, want int, timeout time.Duration) (time.Time, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		ply, at := s.ply, s.at
		s.mu.Unlock()
		if ply >= want {
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
