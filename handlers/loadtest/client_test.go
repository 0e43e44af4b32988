package loadtest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestH2CBurstSharesConnections sends 1,000 requests at once over h2c, as
// the driver resigns every game at a run's end: they share a few
// connections, as behind a reverse proxy, instead of each dialling its
// own (net/http's Transport without h2cDials opened hundreds).
func TestH2CBurstSharesConnections(t *testing.T) {
	var dialled atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(10 * time.Millisecond) // the requests overlap
		io.WriteString(w, "ok")
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dialled.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	tr := newTransports(Config{H2C: true, Games: 1})
	defer tr.closeIdle()
	client := &http.Client{Transport: tr.requests}
	const requests = 1000
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range requests {
		wg.Go(func() {
			resp, err := client.Get(srv.URL)
			if err != nil || resp.ProtoMajor != 2 {
				failed.Add(1)
				return
			}
			drainClose(resp)
		})
	}
	wg.Wait()
	if failed.Load() > 0 {
		t.Fatalf("%d of %d requests failed or did not speak HTTP/2", failed.Load(), requests)
	}
	// 250 streams a connection (the server's default) need 4; a few
	// dozen are dialled h2cDials at a time while the first are set up
	// (23 here, 449 without the bound).
	n := dialled.Load()
	t.Logf("%d requests at once dialled %d connections", requests, n)
	if n > 50 {
		t.Errorf("%d requests at once dialled %d connections, want at most 50", requests, n)
	}
}
