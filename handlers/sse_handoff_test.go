package handlers

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"satranc/engine/chess"
)

// newH2CStreamEnv is a streamEnv whose server and client speak HTTP/2
// without TLS, as the server behind a proxy does (ServeH2C).
func newH2CStreamEnv(t *testing.T, limits StreamLimits) *streamEnv {
	t.Helper()
	e := newStreamEnv(t, limits, nil)
	e.srv.Close()
	srv := httptest.NewUnstartedServer(e.h.Routes())
	startH2C(t, srv)
	e.srv = srv
	return e
}

// TestStreamHandoffOverHTTP2: over HTTP/2 the game, Watch, standings and
// lobby streams are handed off (sse_handoff.go): each waits a few frames
// from the top of its goroutine, not under the middleware, and still
// works as before: the
// players' and a spectator's streams get the move, a stream closed gives
// its slot back under the caps, and a player whose stream closes is
// noticed at once (the disconnection countdown starts).
func TestStreamHandoffOverHTTP2(t *testing.T) {
	e := newH2CStreamEnv(t, StreamLimits{PerMember: 2, PerAddress: 20, Total: 20})
	game := fmt.Sprintf("/games/%d/events", e.gameID)
	const a = "198.51.100.1"

	ayse := e.open(game, e.ayse, a)
	bora := e.open(game, e.bora, "198.51.100.2")
	spectator := e.open(game, e.cemil, a)
	watch := e.open("/watch/events", e.cemil, a)
	standings := e.open("/tournaments/daily/events", e.deniz, "198.51.100.3")
	lobbyWait := e.open("/lobby/wait/events", e.deniz, "198.51.100.3")
	for _, resp := range []*http.Response{ayse, bora, spectator, watch, standings, lobbyWait} {
		if resp.ProtoMajor != 2 {
			t.Fatalf("a stream came over %s: the test needs HTTP/2", resp.Proto)
		}
	}
	e.waitOpen(6)
	for name, resp := range map[string]*http.Response{"standings": standings, "lobby": lobbyWait} {
		waitEvent(t, name, resp)
	}
	ayseEvents, boraEvents, spectatorEvents := eventIDs(ayse), eventIDs(bora), eventIDs(spectator)
	for _, c := range []struct {
		name   string
		events <-chan string
	}{{"ayse", ayseEvents}, {"bora", boraEvents}, {"the spectator", spectatorEvents}} {
		waitEventID(t, c.name, c.events, "0")
	}

	// Every stream waits outside the middleware: no goroutine of a
	// stream has the router on its stack. A stream enters its loop once
	// its first event is sent: give the last ones a moment.
	waiting := streamStacks(t)
	for deadline := time.Now().Add(5 * time.Second); len(waiting) < 6 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		waiting = streamStacks(t)
	}
	if len(waiting) < 6 {
		t.Fatalf("%d goroutines wait in a stream, want at least 6:\n%s", len(waiting), strings.Join(waiting, "\n\n"))
	}
	for _, stack := range waiting {
		if strings.Contains(stack, "go-chi") || !strings.Contains(stack, "streamsHandedOff") {
			t.Errorf("a stream waits under the middleware, not handed off:\n%s", stack)
		}
	}
	if got := testutil.ToFloat64(e.metrics.streams); got != 6 {
		t.Errorf("satranc_sse_streams = %v with the six streams open, want 6", got)
	}

	// A move reaches the players and the spectator.
	white := e.playE4(a)
	for _, c := range []struct {
		name   string
		events <-chan string
	}{{"ayse", ayseEvents}, {"bora", boraEvents}, {"the spectator", spectatorEvents}} {
		waitEventID(t, c.name, c.events, "1")
	}

	// The member cap holds for streams handed off, and a stream closed
	// gives its slot back.
	e.refused(game, e.cemil, a, "error.too_many_streams")
	spectator.Body.Close()
	e.waitOpen(5)
	e.open(game, e.cemil, a)

	// A player whose stream closes is noticed at once.
	ayseSide := chess.White
	if white != e.ayse {
		ayseSide = chess.Black
	}
	ayse.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		snap, err := e.games.Game(context.Background(), e.gameID)
		if err != nil {
			t.Fatal(err)
		}
		if !snap.DisconnectDeadline[ayseSide].IsZero() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Ayşe's stream closed, and her disconnection countdown has not started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.waitOpen(5)
}

// eventIDs sends the id of every event resp's stream carries.
func eventIDs(resp *http.Response) <-chan string {
	ids := make(chan string, 64)
	go func() {
		defer close(ids)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
				ids <- id
			}
		}
	}()
	return ids
}

// waitEvent waits for the first event of resp's stream.
func waitEvent(t *testing.T, name string, resp *http.Response) {
	t.Helper()
	read := make(chan error, 1)
	go func() {
		br := bufio.NewReader(resp.Body)
		for {
			line, err := br.ReadString('\n')
			if err != nil || line == "\n" {
				read <- err
				return
			}
		}
	}()
	select {
	case err := <-read:
		if err != nil {
			t.Fatalf("the %s stream ended before its first event: %v", name, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the %s stream sent no event", name)
	}
}

// waitEventID waits for the event of id on events, skipping others.
func waitEventID(t *testing.T, name string, events <-chan string, id string) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case got, ok := <-events:
			if !ok {
				t.Fatalf("%s's stream ended before event %s", name, id)
			}
			if got == id {
				return
			}
		case <-timeout:
			t.Fatalf("%s's stream: no event %s", name, id)
		}
	}
}

// streamStacks returns the stacks of the goroutines that wait in a game,
// Watch, standings or lobby stream's loop.
func streamStacks(t *testing.T) []string {
	t.Helper()
	var sb strings.Builder
	if err := pprof.Lookup("goroutine").WriteTo(&sb, 2); err != nil {
		t.Fatal(err)
	}
	var waiting []string
	for _, stack := range strings.Split(sb.String(), "\n\n") {
		for _, loop := range []string{"(*gameStream).wait(", "(*watchStream).wait(", "(*standingsStream).wait(", "(*lobbyWaitStream).wait("} {
			if strings.Contains(stack, loop) {
				waiting = append(waiting, stack)
				break
			}
		}
	}
	return waiting
}
