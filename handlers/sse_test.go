package handlers

import (
	"net/http/httptest"
	"testing"
)

func TestSSEWriter(t *testing.T) {
	rec := httptest.NewRecorder()
	s, err := newSSEWriter(rec)
	if err != nil {
		t.Fatal(err)
	}
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
