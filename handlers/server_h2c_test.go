package handlers

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// TestServeH2CSharesConnections: over h2c one connection carries
// H2CStreams requests at once, as a proxy's connection carries its
// viewers' event streams: the client opens no second connection until
// the first is full. Its write scheduler skips the idle streams
// (ServeH2C), without which so many a connection would cost the server
// more than the connections they save.
func TestServeH2CSharesConnections(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/stream" {
			return
		}
		w.WriteHeader(http.StatusOK)
		_ = http.NewResponseController(w).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	startH2C(t, srv)
	defer srv.Close()
	defer close(release)
	var dials atomic.Int32
	tr := srv.Client().Transport.(*http.Transport)
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	get := func(path string) (io.ReadCloser, error) {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			return nil, err
		}
		if resp.ProtoMajor != 2 {
			resp.Body.Close()
			return nil, fmt.Errorf("GET %s over %s, want HTTP/2", path, resp.Proto)
		}
		return resp.Body, nil
	}
	// The first request brings the server's settings, its limit among them.
	body, err := get("/")
	if err != nil {
		t.Fatal(err)
	}
	body.Close()

	var bodies []io.ReadCloser
	var mu sync.Mutex
	// openStreams returns once every stream has its response headers, so
	// once the server holds them all open; no client goroutine outlives it.
	openStreams := func(n int) {
		var clients sync.WaitGroup
		for range n {
			clients.Go(func() {
				body, err := get("/stream")
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				bodies = append(bodies, body)
				mu.Unlock()
			})
		}
		clients.Wait()
	}
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, b := range bodies {
			b.Close()
		}
	}()

	openStreams(H2CStreams)
	if n := dials.Load(); n != 1 {
		t.Errorf("%d streams open over %d connections, want 1", H2CStreams, n)
	}
	openStreams(1) // past the limit: a second connection
	if n := dials.Load(); n != 2 {
		t.Errorf("%d streams open over %d connections, want 2", H2CStreams+1, n)
	}
}
