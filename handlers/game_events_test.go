package handlers

import (
	"bufio"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"go.uber.org/goleak"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// sseTimeout bounds each wait of the stream tests; generous for a busy
// machine under -race, and never reached when things work.
const sseTimeout = 10 * time.Second

// sseEvent is one event of a stream, or a comment (name "", comment set).
type sseEvent struct {
	id, name, data, comment string
}

// stream is a game's event stream opened by one viewer on a real server.
type stream struct {
	resp   *http.Response
	events chan sseEvent
	done   chan struct{} // closed when the reader has stopped
	cancel context.CancelFunc
}

// openStream opens /games/7/events as user on srv and starts reading its
// events.
func openStream(t *testing.T, srv *httptest.Server, user account.User) *stream {
	t.Helper()
	return openGameStream(t, srv, testGameID, user)
}

// openGameStream opens the events of game id as user on srv and starts
// reading them.
func openGameStream(t *testing.T, srv *httptest.Server, id int64, user account.User) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/games/"+strconv.FormatInt(id, 10)+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: "tok-" + user.Name})
	resp, err := srv.Client().Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	s := &stream{resp: resp, events: make(chan sseEvent, 16), done: make(chan struct{}), cancel: cancel}
	go s.read()
	return s
}

// read parses the stream into events until it ends.
func (s *stream) read() {
	defer close(s.done)
	defer close(s.events)
	sc := bufio.NewScanner(s.resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var ev sseEvent
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			ev.data = strings.Join(data, "\n")
			s.events <- ev
			ev, data = sseEvent{}, nil
		case strings.HasPrefix(line, ": "):
			s.events <- sseEvent{comment: strings.TrimPrefix(line, ": ")}
		case strings.HasPrefix(line, "id: "):
			ev.id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		}
	}
}

// next returns the next game panel event, skipping comments (heartbeats)
// and other events (clock updates), which may come at any time.
func (s *stream) next(t *testing.T) sseEvent {
	t.Helper()
	return s.nextWhere(t, func(ev sseEvent) bool { return ev.comment == "" && ev.name == views.EventGame })
}

// nextWhere returns the next event or comment for which want is true,
// skipping the others.
func (s *stream) nextWhere(t *testing.T, want func(sseEvent) bool) sseEvent {
	t.Helper()
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				t.Fatal("the stream ended")
			}
			if want(ev) {
				return ev
			}
		case <-time.After(sseTimeout):
			t.Fatal("no event within the timeout")
		}
	}
}

// close goes away as a closed tab does and waits for the reader.
func (s *stream) close(t *testing.T) {
	t.Helper()
	s.cancel()
	s.resp.Body.Close()
	timeout := time.After(sseTimeout)
	for {
		select {
		case <-s.events: // unread events must not block the reader
		case <-s.done:
			return
		case <-timeout:
			t.Fatal("stream reader did not stop")
		}
	}
}

// panelPly reads the ply of the game panel an event carries.
func panelPly(t *testing.T, ev sseEvent) string {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(ev.data))
	if err != nil {
		t.Fatal(err)
	}
	panel := doc.Find(`[data-testid="game-panel"]`)
	if panel.Length() != 1 {
		t.Fatalf("event %q carries no game panel: %.200s", ev.name, ev.data)
	}
	return panel.AttrOr("data-ply", "")
}

// newEventsServer serves the routes with the fake games on a real server,
// so that the stream is read as a browser reads it.
func newEventsServer(t *testing.T, games *fakeGames) *httptest.Server {
	t.Helper()
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games})
	return serveRoutes(h, nil)
}

// serveRoutes serves h's routes on a real server (httptest) on a listener
// that wrap, if not nil, makes of the server's. Closing the server ends
// the spectators' streams h took out of net/http too, and waits for them,
// as the serve command's shutdown does (Handler.ShutdownServer):
// httptest's own Close waits for the handlers only.
func serveRoutes(h *Handler, wrap func(net.Listener) net.Listener) *httptest.Server {
	srv := httptest.NewUnstartedServer(h.Routes())
	if wrap != nil {
		srv.Listener = wrap(srv.Listener)
	}
	srv.Listener = endsDetached{srv.Listener, h}
	srv.Start()
	return srv
}

// endsDetached is a listener whose Close ends h's detached streams.
type endsDetached struct {
	net.Listener
	h *Handler
}

func (l endsDetached) Close() error {
	err := l.Listener.Close()
	ctx, cancel := context.WithTimeout(context.Background(), sseTimeout)
	defer cancel()
	return errors.Join(err, l.h.detached.end(ctx))
}

// waitUser receives a user ID from c or fails.
func waitUser(t *testing.T, c <-chan int64, what string) int64 {
	t.Helper()
	select {
	case u := <-c:
		return u
	case <-time.After(sseTimeout):
		t.Fatalf("no %s within the timeout", what)
		return 0
	}
}

func TestGameEventsPlayer(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	srv := newEventsServer(t, games)
	defer srv.Close()

	s := openStream(t, srv, bora)
	if s.resp.StatusCode != http.StatusOK {
		t.Fatalf("GET events = %d", s.resp.StatusCode)
	}
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-store"} {
		if got := s.resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}

	// The stream starts with the snapshot, rendered for Black.
	ev := s.next(t)
	if ev.name != "game" || ev.id != "1" || panelPly(t, ev) != "1" {
		t.Fatalf("first event: name %q id %q, want game 1", ev.name, ev.id)
	}
	if !strings.Contains(ev.data, `data-orientation="black"`) {
		t.Error("Black's snapshot is not oriented for Black")
	}
	if u := waitUser(t, games.connected, "Connected"); u != bora.ID {
		t.Errorf("Connected(%d), want bora", u)
	}

	// A move: the fake's game moves on and the hub tells the stream.
	games.setSnap(testSnapshot(t, time.Now(), "e2e4", "e7e5"))
	games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{
		Stamp: game.Stamp{Ply: 2, Time: time.Now()}, Side: chess.Black,
	}})
	ev = s.next(t)
	if ev.name != "game" || ev.id != "2" || panelPly(t, ev) != "2" {
		t.Errorf("event after the move: name %q id %q, want game 2", ev.name, ev.id)
	}

	// Closing the tab disconnects the player and ends the handler.
	s.close(t)
	if u := waitUser(t, games.disconnected, "Disconnected"); u != bora.ID {
		t.Errorf("Disconnected(%d), want bora", u)
	}
	srv.Close() // waits for the handler to return
	if n := games.hub.Subscribers(testGameID); n != 0 {
		t.Errorf("%d subscribers left after the stream ended", n)
	}
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}

func TestGameEventsSpectator(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	srv := newEventsServer(t, games)
	defer srv.Close()

	s := openStream(t, srv, cemil)
	ev := s.next(t)
	if ev.name != "game" || ev.id != "1" {
		t.Fatalf("first event: name %q id %q, want game 1", ev.name, ev.id)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(ev.data))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Find(`[data-testid="actions"]`).Length() != 0 {
		t.Error("a spectator's panel has the players' actions")
	}
	s.close(t)
	srv.Close()
	for _, c := range games.changes() {
		if c.method == "Connected" || c.method == "Disconnected" {
			t.Errorf("a spectator's stream called %s", c.method)
		}
	}
	if n := games.hub.Subscribers(testGameID); n != 0 {
		t.Errorf("%d subscribers left after the stream ended", n)
	}
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}

// TestGameEventsBurst checks that events published together reach the
// stream as a snapshot of the latest state.
func TestGameEventsBurst(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	games := newFakeGames(testSnapshot(t, time.Now()))
	srv := newEventsServer(t, games)
	defer srv.Close()

	s := openStream(t, srv, ayse)
	if ev := s.next(t); ev.id != "0" {
		t.Fatalf("first event id %q, want 0", ev.id)
	}
	moves := []string{"e2e4", "e7e5", "g1f3"}
	games.setSnap(testSnapshot(t, time.Now(), moves...))
	for i := range moves {
		games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{Stamp: game.Stamp{Ply: i + 1}}})
	}
	// However the burst is split into renders, each shows the latest state
	// and the last one is at ply 3.
	for {
		ev := s.next(t)
		if ev.id != "3" || panelPly(t, ev) != "3" {
			t.Fatalf("event id %q, want 3 (the state when it was rendered)", ev.id)
		}
		if len(s.events) == 0 {
			break
		}
	}
	s.close(t)
	waitUser(t, games.disconnected, "Disconnected")
	srv.Close()
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}

func TestGameEventsUnknownGame(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	games := newFakeGames()
	srv := newEventsServer(t, games)
	defer srv.Close()

	s := openStream(t, srv, ayse)
	if s.resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET events of an unknown game = %d, want 404", s.resp.StatusCode)
	}
	s.close(t)
	srv.Close()
	if n := games.hub.Subscribers(testGameID); n != 0 {
		t.Errorf("%d subscribers left after a refused stream", n)
	}
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}

// TestGameEventsHeartbeatAndClocks: between changes, a live timed game's
// stream sends both clocks every ClockSync, with no event id (they are not
// a new ply); a finished game's stream, which has no clocks to send, gets
// a comment line every Heartbeat, so that proxies keep it open.
func TestGameEventsHeartbeatAndClocks(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	over := testSnapshot(t, time.Now(), "f2f3", "e7e5", "g2g4", "d8h4")
	over.ID = testGameID + 1
	games.snaps[over.ID] = over
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games,
		Heartbeat: 30 * time.Millisecond, ClockSync: 20 * time.Millisecond})
	srv := serveRoutes(h, nil)
	defer srv.Close()

	notPanel := func(ev sseEvent) bool { return ev.name != views.EventGame }
	live := openStream(t, srv, cemil)
	seen := map[string]bool{}
	for len(seen) < 2 {
		ev := live.nextWhere(t, notPanel)
		if ev.comment != "" {
			continue
		}
		if ev.id != "" || !strings.Contains(ev.data, `data-remaining-ms=`) {
			t.Fatalf("clock event %q with id %q: %.200s", ev.name, ev.id, ev.data)
		}
		seen[ev.name] = true
	}
	if !seen[views.ClockEvent(chess.White)] || !seen[views.ClockEvent(chess.Black)] {
		t.Errorf("clock events %v, want both clocks", seen)
	}
	live.close(t)

	finished := openGameStream(t, srv, over.ID, cemil)
	if ev := finished.nextWhere(t, notPanel); ev.comment != "ping" {
		t.Errorf("a finished game's stream sent %+v, want the heartbeat", ev)
	}
	finished.close(t)
	srv.Close()
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}

// TestGameEventsNoClockUpdateBetweenMoves checks that a game moving faster
// than the clock sync gets no clock updates between its moves (each panel
// carries the clocks), and gets them again once it goes quiet.
func TestGameEventsNoClockUpdateBetweenMoves(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	const clockSync = time.Second
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games,
		Heartbeat: time.Minute, ClockSync: clockSync})
	srv := serveRoutes(h, nil)
	defer srv.Close()

	s := openStream(t, srv, ayse)
	defer s.resp.Body.Close() // on failure: srv.Close waits for the stream
	defer s.cancel()
	s.next(t)
	moving := make(chan struct{})
	go func() {
		defer close(moving)
		// Two and a half clock syncs of moves, 50 ms apart.
		for i := range int(5 * clockSync / (100 * time.Millisecond)) {
			games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{Stamp: game.Stamp{Ply: i + 2}}})
			time.Sleep(50 * time.Millisecond)
		}
	}()
	isClock := func(ev sseEvent) bool { return strings.HasPrefix(ev.name, "clock") }
	panels := 0
	for done := false; !done; {
		select {
		case ev, ok := <-s.events:
			if !ok {
				t.Fatal("the stream ended")
			}
			if isClock(ev) {
				t.Fatalf("clock update %q while the game moved every 50 ms (after %d panels)", ev.name, panels)
			}
			if ev.name == views.EventGame {
				panels++
			}
		case <-moving:
			done = true
		}
	}
	if panels == 0 {
		t.Fatal("no panel while the game moved")
	}
	if ev := s.nextWhere(t, isClock); ev.id != "" {
		t.Errorf("clock update with id %q", ev.id)
	}
	s.close(t)
	srv.Close()
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}
