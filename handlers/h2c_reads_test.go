package handlers

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestH2CReadsBuffered: the HTTP/2 server reads an h2c connection through
// a buffer, so that a frame costs at most one read of the connection
// instead of two (its header, then its payload). A request with a body
// is at least two frames, so unbuffered 100 of them take at least 400
// reads.
func TestH2CReadsBuffered(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	reads := new(atomic.Int64)
	srv.Listener = countingListener{Listener: srv.Listener, reads: reads}
	startH2C(t, srv)
	defer srv.Close()

	const requests = 100
	var wg sync.WaitGroup
	for range requests {
		wg.Go(func() {
			resp, err := srv.Client().Post(srv.URL+"/move", "application/x-www-form-urlencoded", strings.NewReader("uci=e2e4&ply=1"))
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			if resp.ProtoMajor != 2 {
				t.Errorf("answered over %s, want HTTP/2", resp.Proto)
			}
		})
	}
	wg.Wait()
	if got := reads.Load(); got >= 3*requests {
		t.Errorf("the server read its connections %d times for %d requests with bodies, want fewer than %d", got, requests, 3*requests)
	} else {
		t.Logf("%d reads for %d requests", got, requests)
	}
}

// countingListener counts the reads of the connections it accepts.
type countingListener struct {
	net.Listener
	reads *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{Conn: c, reads: l.reads}, nil
}

type countingConn struct {
	net.Conn
	reads *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	c.reads.Add(1)
	return c.Conn.Read(p)
}
