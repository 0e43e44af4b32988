package handlers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// DefaultHeartbeat is how often an idle stream gets a comment line, so that
// proxies and browsers do not close it as dead.
const DefaultHeartbeat = 20 * time.Second

// sseWriter writes Server-Sent Events to one response
// (html.spec.whatwg.org/multipage/server-sent-events.html).
type sseWriter struct {
	w  *bufio.Writer
	rc *http.ResponseController
}

// newSSEWriter sends the headers of an event stream and lifts the server's
// write timeout for this response, which may last for hours.
func newSSEWriter(w http.ResponseWriter) (*sseWriter, error) {
	rc := http.NewResponseController(w)
	// A writer without deadlines (a test recorder) has nothing to lift.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, fmt.Errorf("handlers: sse: lift write deadline: %w", err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: pass events through at once
	w.WriteHeader(http.StatusOK)
	s := &sseWriter{w: bufio.NewWriterSize(w, 4096), rc: rc}
	return s, s.flush()
}

// event writes one event. data may span lines: each becomes its own data
// field, as the format requires; an empty id or name is left out.
func (s *sseWriter) event(id, name string, data []byte) error {
	if id != "" {
		fmt.Fprintf(s.w, "id: %s\n", id)
	}
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	for line := range bytes.Lines(data) {
		s.w.WriteString("data: ")
		s.w.Write(bytes.TrimRight(line, "\r\n"))
		s.w.WriteByte('\n')
	}
	if len(data) == 0 {
		s.w.WriteString("data: \n")
	}
	s.w.WriteByte('\n')
	return s.flush()
}

// comment writes a comment line, which clients ignore: the heartbeat.
func (s *sseWriter) comment(text string) error {
	s.w.WriteString(": " + strings.ReplaceAll(text, "\n", " ") + "\n\n")
	return s.flush()
}

func (s *sseWriter) flush() error {
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("handlers: sse: %w", err)
	}
	if err := s.rc.Flush(); err != nil {
		return fmt.Errorf("handlers: sse: %w", err)
	}
	return nil
}
