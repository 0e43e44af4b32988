package handlers

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// TestSSEStalledOverHTTP2: over HTTP/2 a client that stops reading a
// stream (here it gives the server no flow-control window at all) blocks
// the stream's next event; the stalls watch ends that write once it has
// run past the stream's write timeout, the stream is reset, and the
// handler is free to return. A stream that keeps reading is not touched.
func TestSSEStalledOverHTTP2(t *testing.T) {
	const writeTimeout = 200 * time.Millisecond
	type outcome struct {
		err  error
		took time.Duration
	}
	ended := make(chan outcome, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := newSSEWriter(r.Context(), w)
		if err != nil {
			ended <- outcome{err: err}
			return
		}
		defer s.close()
		s.writeTimeout = writeTimeout
		start := time.Now()
		for {
			if err := s.event("", "move", bytes.Repeat([]byte("x"), 1024)); err != nil {
				ended <- outcome{err, time.Since(start)}
				return
			}
		}
	}))
	if err := ServeH2C(srv.Config); err != nil {
		t.Fatal(err)
	}
	srv.Start()
	defer srv.Close()

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(http2.ClientPreface)); err != nil {
		t.Fatal(err)
	}
	fr := http2.NewFramer(conn, conn)
	// No window for any stream's data: the server can send the response's
	// head, and not one byte of its body.
	if err := fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 0}); err != nil {
		t.Fatal(err)
	}
	var head bytes.Buffer
	enc := hpack.NewEncoder(&head)
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", "test"}, {":path", "/"}} {
		_ = enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: head.Bytes(), EndStream: true, EndHeaders: true}); err != nil {
		t.Fatal(err)
	}

	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	reset := false
	for !reset {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("no reset of the stalled stream: %v", err)
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				_ = fr.WriteSettingsAck()
			}
		case *http2.DataFrame:
			t.Fatalf("the server sent %d bytes of data with no window", len(f.Data()))
		case *http2.RSTStreamFrame:
			reset = f.StreamID == 1
		}
	}
	select {
	case o := <-ended:
		if o.err == nil {
			t.Fatal("the stalled write returned no error")
		}
		if o.took < writeTimeout || o.took > writeTimeout+stallCheck+2*time.Second {
			t.Errorf("the stalled write ended after %v, want its timeout %v to %v later", o.took, writeTimeout, stallCheck)
		}
		t.Logf("the stalled write ended after %v: %v", o.took, o.err)
	case <-time.After(5 * time.Second):
		t.Fatal("the handler still writes after the stream's reset")
	}
}

// TestStallWatchLeavesWritesInTime: the stalls watch ends only the writes
// that have run past their timeout, and stops its timer once no stream is
// watched.
func TestStallWatchLeavesWritesInTime(t *testing.T) {
	w := newStallWatch(10 * time.Millisecond)
	quick := &sseWriter{out: &recordedDeadlines{}, writeTimeout: time.Hour, watched: true, ctx: t.Context()}
	slow := &sseWriter{out: &recordedDeadlines{}, writeTimeout: time.Millisecond, watched: true, ctx: t.Context()}
	w.add(quick)
	w.add(slow)
	quick.writing.Store(time.Now().UnixNano())
	slow.writing.Store(time.Now().UnixNano())
	deadline := time.Now().Add(5 * time.Second)
	for !slow.isEnded() {
		if time.Now().After(deadline) {
			t.Fatal("the write past its timeout was not ended")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if quick.isEnded() {
		t.Error("a write within its timeout was ended")
	}
	slow.mu.Lock() // end set them under it
	got := slow.out.(*recordedDeadlines).set
	slow.mu.Unlock()
	if len(got) != 1 || got[0].After(time.Now()) {
		t.Errorf("deadlines set on the stalled write: %v, want one already passed", got)
	}
	w.remove(quick)
	w.remove(slow)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		w.mu.Lock()
		stopped := w.timer == nil
		w.mu.Unlock()
		if stopped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the watch's timer still runs with no stream watched")
		}
	}
}

// recordedDeadlines is an eventSink that records the write deadlines set.
type recordedDeadlines struct {
	bytes.Buffer
	set []time.Time
}

func (r *recordedDeadlines) Flush() error { return nil }

func (r *recordedDeadlines) SetWriteDeadline(t time.Time) error {
	r.set = append(r.set, t)
	return nil
}

func (s *sseWriter) isEnded() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}
