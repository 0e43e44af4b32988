package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"satranc/engine/account"
	"satranc/engine/clock"
	"satranc/engine/lobby"
	"satranc/views"
)

// openLobbyStream opens the waiting page's stream as user.
func openLobbyStream(t *testing.T, srv *httptest.Server, user account.User) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/lobby/wait/events", nil)
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

func TestLobbyWaitEvents(t *testing.T) {
	defer goleak.VerifyNone(t)
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	lb := newFakeLobby()
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Lobby: lb})
	srv := httptest.NewServer(h.Routes())
	defer srv.Close()

	table := lobby.Table{Control: clock.MustParse("3+2")}
	if err := lb.Join(context.Background(), ayse.ID, table); err != nil {
		t.Fatal(err)
	}
	s := openLobbyStream(t, srv, ayse)
	defer s.close(t)
	ev := nextWait(t, s)
	if ev.name != views.EventWait || !strings.Contains(ev.data, `data-testid="wait-elapsed"`) {
		t.Fatalf("first event %q: %q, want the waiting panel", ev.name, ev.data)
	}

	st := lobby.Status{State: lobby.Paired, Table: table, Since: time.Now(), Game: 42}
	lb.mu.Lock()
	lb.status[ayse.ID] = st
	lb.mu.Unlock()
	lb.hub.Publish(ayse.ID, lobby.Event{User: ayse.ID, Status: st})
	for {
		ev = nextWait(t, s)
		if strings.Contains(ev.data, `data-game="42"`) {
			break
		}
		if ev.name != views.EventWait || !strings.Contains(ev.data, `data-game="0"`) {
			t.Fatalf("event %q: %q, want the panel", ev.name, ev.data)
		}
	}
	if !strings.Contains(ev.data, `href="/games/42"`) || !strings.Contains(ev.data, `hx-get="/lobby/wait"`) {
		t.Errorf("paired panel %q, want a link to the game and the htmx hop", ev.data)
	}
}

// nextWait returns the stream's next waiting-panel event.
func nextWait(t *testing.T, s *stream) sseEvent {
	t.Helper()
	timeout := time.After(sseTimeout)
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				t.Fatal("the stream ended")
			}
			if ev.name == views.EventWait {
				return ev
			}
		case <-timeout:
			t.Fatal("no event within the timeout")
		}
	}
}
