package handlers

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestServeH2CSharesConnections: over h2c one connection carries
// H2CStreams requests at once, as a proxy's connection carries its
// viewers' event streams, and no more: past it, the proxy opens another.
// Its write scheduler skips the idle streams (ServeH2C), without which so
// many a connection would cost the server more than the connections they
// save.
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
	// One connection of the client's own: a pool of connections may dial
	// a second for a request that comes while the first is being put in
	// the pool (once, on a busy machine, 256 streams opened at once went
	// over 41 connections of the transport's).
	tr := srv.Client().Transport.(*http.Transport)
	cc, err := tr.NewClientConn(t.Context(), "http", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	get := func(path string) (io.ReadCloser, error) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := cc.RoundTrip(req)
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
	if _, err := io.Copy(io.Discard, body); err != nil {
		t.Fatal(err)
	}
	body.Close()

	var bodies []io.ReadCloser
	defer func() {
		for _, b := range bodies {
			b.Close()
		}
	}()
	// Each stream is held open by the server once its headers are in.
	for len(bodies) < H2CStreams {
		if cc.Available() == 0 {
			t.Fatalf("the connection is full with %d streams open, want %d", len(bodies), H2CStreams)
		}
		body, err := get("/stream")
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, body)
	}
	if n := cc.Available(); n != 0 {
		t.Errorf("with %d streams open the connection takes %d more, want none", H2CStreams, n)
	}
	if err := cc.Reserve(); err == nil {
		cc.Release()
		t.Errorf("the connection takes stream %d, want it refused", H2CStreams+1)
	}
}
