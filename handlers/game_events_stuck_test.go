package handlers

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/goleak"

	"satranc/engine/account"
	"satranc/engine/game"
	"satranc/engine/live"
	"satranc/engine/play"
)

// smallBuffers accepts connections with a small send buffer, so that a
// client that stops reading blocks the server's writes after a few events
// instead of after megabytes.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

// stuckSetup is the test game's handler with the stream write timeout
// writeTimeout, whose hub never drops a subscriber for falling behind
// (engine/live tests that): there only a blocked write's end can end a
// stream whose client does not read.
func stuckSetup(t *testing.T, writeTimeout time.Duration) (*Handler, *fakeGames, *Metrics) {
	t.Helper()
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	games.hub = live.New[int64, *play.Event](1 << 20)
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	metrics := NewMetrics(MetricsConfig{})
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games,
		Metrics: metrics, StreamWriteTimeout: writeTimeout})
	return h, games, metrics
}

// openStuckStream opens the test game's stream on srv as cemil, with a
// small receive buffer, and never reads it; it waits until both that
// stream and the one already open are running.
func openStuckStream(t *testing.T, srv *httptest.Server, metrics *Metrics) net.Conn {
	t.Helper()
	stuck, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	_ = stuck.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(stuck, "GET /games/%d/events HTTP/1.1\r\nHost: test\r\nCookie: %s=tok-%s\r\n\r\n", testGameID, sessionCookie, cemil.Name)
	for deadline := time.Now().Add(sseTimeout); testutil.ToFloat64(metrics.streams) < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			stuck.Close()
			t.Fatal("the stuck client's stream did not open")
		}
	}
	return stuck
}

// TestGameEventsStuckClientDropped: a spectator whose client stops
// reading (it asked for the stream and never reads a byte) does not hold
// up the game's other stream, which gets every event, and once its
// connection's buffers are full it is dropped: the server closes its
// connection, and no goroutine is left behind.
func TestGameEventsStuckClientDropped(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	h, games, metrics := stuckSetup(t, 200*time.Millisecond)
	srv := serveRoutes(h, func(l net.Listener) net.Listener { return smallBuffers{l} })
	defer srv.Close()

	s := openStream(t, srv, ayse)
	defer s.cancel() // before srv.Close, should the test stop early
	s.next(t)
	waitUser(t, games.connected, "Connected")
	stuck := openStuckStream(t, srv, metrics)
	defer stuck.Close()
	// Publish until the stuck stream has ended; the reading one gets each
	// event before the next is published. The stuck one's handler blocks
	// writing once the connection's buffers are full, its write runs out of
	// time, and it returns (net/http then closes the connection).
	// The bound is time, not a number of events: cheap events are
	// published faster than the 200 ms write timeout can run out.
	published, deadline := 0, time.Now().Add(10*time.Second)
	for ; testutil.ToFloat64(metrics.streams) > 1; published++ {
		if time.Now().After(deadline) {
			t.Fatalf("the stuck stream still runs after %d events in 10 s", published)
		}
		games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{Stamp: game.Stamp{Ply: 1}}})
		s.next(t)
	}
	t.Logf("the stuck stream ended after %d events", published)
	// The stream's gauge drops as its loop returns; its subscription is
	// closed a moment later, by the handler's deferred calls.
	for wait := time.Now().Add(5 * time.Second); games.hub.Subscribers(testGameID) != 1 && time.Now().Before(wait); {
		time.Sleep(5 * time.Millisecond)
	}
	if n := games.hub.Subscribers(testGameID); n != 1 {
		t.Errorf("%d subscribers, want the reading stream's only", n)
	}
	// Reading what the server sent comes to an end, rather than waiting
	// for more.
	_ = stuck.SetReadDeadline(time.Now().Add(sseTimeout))
	resp, err := http.ReadResponse(bufio.NewReader(stuck), nil)
	if err == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the stuck stream was left open")
	}

	// The reading stream still works.
	games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{Stamp: game.Stamp{Ply: 1}}})
	s.next(t)
	s.close(t)
	waitUser(t, games.disconnected, "Disconnected")
	srv.Close()
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}
