package handlers

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkSSEEventH2C measures one event sent on one of 64 streams that
// share an HTTP/2 connection without TLS, as a reverse proxy's viewers
// share one (ServeH2C): the event's writing, its deadline and the
// connection's goroutine that frames it, with the client reading every
// stream. The payload is the size of a move's delta.
func BenchmarkSSEEventH2C(b *testing.B) {
	const streams = 64
	payload := make([]byte, 340)
	for i := range payload {
		payload[i] = 'a' + byte(i%26)
	}
	writers := make(chan *sseWriter, streams)
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := newSSEWriter(r.Context(), w)
		if err != nil {
			b.Error(err)
			return
		}
		defer s.close()
		writers <- s
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	startH2C(b, srv)
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var readers sync.WaitGroup
	for range streams {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		resp, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		if resp.ProtoMajor != 2 {
			b.Fatalf("the stream came over %s: the benchmark needs HTTP/2", resp.Proto)
		}
		readers.Go(func() {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		})
	}
	all := make([]*sseWriter, 0, streams)
	for range streams {
		all = append(all, <-writers)
	}

	b.ReportAllocs()
	b.ResetTimer()
	// Each of the benchmark's goroutines writes to streams of its own, in
	// turn: a stream is written by one goroutine at a time, as a viewer's
	// stream is.
	var goroutines atomic.Int32
	b.RunParallel(func(pb *testing.PB) {
		g := int(goroutines.Add(1) - 1)
		mine := all[g*streams/runtime.GOMAXPROCS(0) : (g+1)*streams/runtime.GOMAXPROCS(0)]
		for i := 0; pb.Next(); i++ {
			if err := mine[i%len(mine)].event("", "move", payload); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	close(release)
	cancel()
	readers.Wait()
}
