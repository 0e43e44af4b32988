package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/goleak"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// detached reports whether resp is a stream taken out of net/http: its
// body ends with the connection, where net/http's are chunked.
func detached(resp *http.Response) bool {
	return resp.Close && len(resp.TransferEncoding) == 0 && resp.ContentLength == -1
}

// TestGameEventsSpectatorDetached: a spectator's stream, taken out of
// net/http, carries the security headers of every response and the event
// stream's own, starts with the snapshot and gets the moves after; a
// player's stream stays with net/http.
func TestGameEventsSpectatorDetached(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	srv := newEventsServer(t, games)
	defer srv.Close()

	player, spectator := openStream(t, srv, bora), openStream(t, srv, cemil)
	defer player.close(t)
	defer spectator.close(t)
	if detached(player.resp) {
		t.Error("a player's stream was taken out of net/http")
	}
	resp := spectator.resp
	if resp.StatusCode != http.StatusOK || !detached(resp) {
		t.Fatalf("spectator's stream: status %d, close %v, transfer encoding %v: not taken out of net/http",
			resp.StatusCode, resp.Close, resp.TransferEncoding)
	}
	for k, want := range map[string]string{
		"Content-Type":            "text/event-stream",
		"Cache-Control":           "no-store",
		"X-Accel-Buffering":       "no",
		"Content-Security-Policy": contentSecurityPolicy,
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "same-origin",
		"X-Frame-Options":         "DENY",
	} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if resp.Header.Get("Date") == "" {
		t.Error("no Date header")
	}

	ev := spectator.next(t)
	if ev.id != "1" || panelPly(t, ev) != "1" {
		t.Fatalf("first event: id %q, want the snapshot at ply 1", ev.id)
	}
	if !strings.Contains(ev.data, `data-orientation="white"`) {
		t.Error("the spectator's snapshot is not oriented for White")
	}
	player.next(t)
	for ply, moves := range [][]string{{"e2e4", "e7e5"}, {"e2e4", "e7e5", "g1f3"}} {
		games.setSnap(testSnapshot(t, time.Now(), moves...))
		games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{
			Stamp: game.Stamp{Ply: ply + 2, Time: time.Now()}, Side: chess.Color(ply % 2),
		}})
		for _, s := range []*stream{spectator, player} {
			if ev := s.next(t); panelPly(t, ev) != strconv.Itoa(len(moves)) {
				t.Errorf("event after move %d: ply %s", ply+2, panelPly(t, ev))
			}
		}
	}
	waitUser(t, games.connected, "Connected")
	player.close(t)
	waitUser(t, games.disconnected, "Disconnected")
	spectator.close(t)
	srv.Close()
	for _, c := range games.changes() {
		if (c.method == "Connected" || c.method == "Disconnected") && c.user == cemil.ID {
			t.Errorf("the spectator's stream called %s", c.method)
		}
	}
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}

// TestGameEventsSpectatorLeaves: a spectator who closes the tab leaves
// nothing behind on the server, whose other streams go on: the stream's
// goroutine, its subscription and its socket are released within a tick
// of the stream's timer (here 20 ms), for a live game (which sends the
// clocks) as for a finished one (a heartbeat now and then).
func TestGameEventsSpectatorLeaves(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	live := testSnapshot(t, time.Now(), "e2e4")
	over := testSnapshot(t, time.Now(), "f2f3", "e7e5", "g2g4", "d8h4")
	over.ID = testGameID + 1
	games := newFakeGames(live)
	games.snaps[over.ID] = over
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	metrics := NewMetrics(MetricsConfig{})
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games,
		Metrics: metrics, Heartbeat: time.Hour, ClockSync: 20 * time.Millisecond})
	srv := serveRoutes(h, nil)
	defer srv.Close()

	player := openStream(t, srv, ayse)
	defer player.close(t)
	player.next(t)
	for id, others := range map[int64]int{live.ID: 1, over.ID: 0} { // others: the player's subscription
		if id == over.ID && runtime.GOOS != "linux" {
			continue // no check without a write (peerGone) elsewhere
		}
		s := openGameStream(t, srv, id, cemil)
		if !detached(s.resp) {
			t.Fatalf("game %d: the spectator's stream was not taken out of net/http", id)
		}
		s.next(t)
		s.close(t)
		for deadline := time.Now().Add(sseTimeout); games.hub.Subscribers(id) > others || h.detached.running() > 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("game %d: the stream of a spectator who left still runs (%d subscribers)", id, games.hub.Subscribers(id)-others)
			}
		}
		if n := testutil.ToFloat64(metrics.streams); n != 1 {
			t.Errorf("game %d: %v streams open, want the player's only", id, n)
		}
	}
	// The player's stream goes on.
	games.setSnap(testSnapshot(t, time.Now(), "e2e4", "e7e5"))
	games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{Stamp: game.Stamp{Ply: 2}}})
	if ev := player.next(t); panelPly(t, ev) != "2" {
		t.Errorf("the player's stream after the spectator left: ply %s", panelPly(t, ev))
	}
	player.close(t)
	srv.Close()
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}

// TestGameEventsDetachedShutdown: the server's shutdown ends the
// spectators' streams taken out of net/http at once (their clients see
// the end), not at their next tick, and waits for them.
func TestGameEventsDetachedShutdown(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	metrics := NewMetrics(MetricsConfig{})
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games,
		Metrics: metrics, Heartbeat: time.Hour, ClockSync: time.Hour})
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = NewServer("", h.Routes(), slog.New(slog.DiscardHandler))
	srv.Start()
	defer srv.Close()

	var spectators []*stream
	for range 3 {
		s := openStream(t, srv, cemil)
		if !detached(s.resp) {
			t.Fatal("the spectator's stream was not taken out of net/http")
		}
		s.next(t)
		spectators = append(spectators, s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), sseTimeout)
	defer cancel()
	if err := h.ShutdownServer(ctx, srv.Config); err != nil {
		t.Fatalf("ShutdownServer = %v", err)
	}
	if n := testutil.ToFloat64(metrics.streams); n != 0 {
		t.Errorf("%v streams open after the shutdown", n)
	}
	if n := games.hub.Subscribers(testGameID); n != 0 {
		t.Errorf("%d subscribers after the shutdown", n)
	}
	for _, s := range spectators {
		for range s.events { // ends when the server closed the stream
		}
		s.close(t)
	}
	// A stream asked for during the shutdown is not taken out of net/http.
	if h.detached.add() {
		t.Error("a stream could still be taken out of net/http after the shutdown")
	}
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}

// TestGameEventsSpectatorRecorder: a writer that cannot be taken out of
// net/http (a test recorder, as HTTP/2's) gets the stream through
// net/http's path.
func TestGameEventsSpectatorRecorder(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games,
		Heartbeat: time.Hour, ClockSync: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/games/7/events", nil)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: "tok-" + cemil.Name})
	rec := httptest.NewRecorder()
	h.Routes().ServeHTTP(rec, req) // returns when ctx ends
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, Content-Type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	if body := rec.Body.String(); !strings.Contains(body, "event: "+views.EventGame+"\n") || !strings.Contains(body, `data-ply="1"`) {
		t.Errorf("no snapshot in the stream: %.300s", body)
	}
	if rec.Header().Get("Connection") != "" {
		t.Error("a stream through net/http has the Connection header of a detached one")
	}
}
