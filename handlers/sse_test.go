package handlers

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"
)

func TestSSEWriter(t *testing.T) {
	rec := httptest.NewRecorder()
	s, err := newSSEWriter(t.Context(), rec)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if err := s.event("12", "game", []byte("<div>\n  <b>x</b>\r\n</div>\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.event("", "clock", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.comment("ping\nsneaky"); err != nil {
		t.Fatal(err)
	}
	want := "id: 12\nevent: game\ndata: <div>\ndata:   <b>x</b>\ndata: </div>\n\n" +
		"event: clock\ndata: \n\n" +
		": ping sneaky\n\n"
	if got := rec.Body.String(); got != want {
		t.Errorf("stream = %q, want %q", got, want)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q", ct)
	}
	if !rec.Flushed {
		t.Error("stream not flushed")
	}
}

// TestSSEWriterEndsWithRequest: once the stream's request has ended (the
// client went away, or the server is shutting down), writing is refused.
func TestSSEWriterEndsWithRequest(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	rec := httptest.NewRecorder()
	s, err := newSSEWriter(ctx, rec)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if err := s.comment("before"); err != nil {
		t.Fatal(err)
	}
	cancel()
	// end runs in a goroutine of its own once ctx is done.
	for err := s.comment("after"); !errors.Is(err, errStreamEnded); err = s.comment("after") {
		if err != nil {
			t.Fatalf("write after the request ended = %v, want errStreamEnded", err)
		}
		time.Sleep(time.Millisecond)
	}
}
