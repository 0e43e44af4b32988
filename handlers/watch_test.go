package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// TestGuestWatchesGame: a guest (no session) reads a game in progress
// and its parts as a member spectator does, with nothing of a player's
// (chat, move form, invitation, controls), and every POST of the game
// sends them to log in, changing nothing.
func TestGuestWatchesGame(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	ayse, bora := e.player(t, "ayse"), e.player(t, "bora")
	id, white, _ := e.privateGame(t, ayse, bora)
	path := fmt.Sprintf("/games/%d", id)
	if resp := e.do(t, request{method: http.MethodPost, target: path + "/moves", form: moveForm("e4", 0), cookies: white.cookies()}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("first move: %d", resp.StatusCode)
	}
	token := e.snapshot(t, id).InviteToken

	for _, target := range []string{path, path + "/position?ply=1", path + "/pgn"} {
		resp := e.do(t, request{target: target})
		body := readBody(t, resp)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("guest GET %s = %d, want 200", target, resp.StatusCode)
		}
		if token != "" && strings.Contains(body, token) {
			t.Errorf("guest GET %s shows the invitation's token", target)
		}
	}
	resp := e.do(t, request{target: path})
	doc := parse(t, resp)
	if doc.Find(`[data-testid="game-panel"]`).Length() != 1 {
		t.Error("the guest's game page has no game panel")
	}
	for _, part := range []string{"chat", "chat-form", "move-form", "voice", "report-form", "resign-open", "draw-offer", "invite"} {
		if n := doc.Find(`[data-testid="` + part + `"]`).Length(); n != 0 {
			t.Errorf("the guest's game page has %d %s", n, part)
		}
	}
	if doc.Find(`[data-testid="move"]`).Length() != 1 {
		t.Error("the guest's game page does not list the move played")
	}
	resp = e.do(t, request{target: path + "/result", header: map[string]string{"HX-Request": "true"}})
	if resp.StatusCode != http.StatusOK {
		t.Errorf("guest GET %s/result = %d, want 200", path, resp.StatusCode)
	}

	before := e.state(t, id)
	for _, tc := range []struct {
		target string
		form   url.Values
	}{
		{path + "/moves", moveForm("e5", 1)},
		{path + "/resign", nil},
		{path + "/leave", nil},
		{path + "/draw", nil},
		{path + "/draw/answer", url.Values{"accept": {"true"}}},
		{path + "/rematch", nil},
		{path + "/chat", url.Values{"text": {"hello"}}},
		{path + "/chat/mute", nil},
		{path + "/voice", url.Values{"kind": {"offer"}}},
		{path + "/report", url.Values{"reason": {"cheating"}}},
	} {
		resp := e.do(t, request{method: http.MethodPost, target: tc.target, form: tc.form})
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/login") {
			t.Errorf("guest POST %s = %d to %q, want 303 to /login", tc.target, resp.StatusCode, loc)
		}
	}
	if after := e.state(t, id); after != before {
		t.Errorf("the guests' POSTs changed the game: %+v, was %+v", after, before)
	}

	// The Watch page lists the game, for guests and members alike.
	for _, who := range []visitor{{"guest", nil}, {"member", bora.cookies()}} {
		resp := e.do(t, request{target: "/watch", cookies: who.cookies})
		doc := parse(t, resp)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s GET /watch = %d", who.name, resp.StatusCode)
		}
		item := doc.Find(fmt.Sprintf(`[data-testid="mini-game"][data-game-id="%d"]`, id))
		if item.Length() != 1 {
			t.Fatalf("%s: the Watch page does not list game %d", who.name, id)
		}
		if href, _ := item.Find(`a`).Attr("href"); href != path {
			t.Errorf("%s: the mini-board links to %q, want %s", who.name, href, path)
		}
		if got := item.Find(`[data-testid="mini-player-white"] .mini-name`).Text(); got != ayse.Name && got != bora.Name {
			t.Errorf("%s: White's name on the mini-board = %q", who.name, got)
		}
		if n := doc.Find(`h1`).Length(); n != 1 {
			t.Errorf("%s: the Watch page has %d h1", who.name, n)
		}
		home := parse(t, e.do(t, request{target: "/", cookies: who.cookies}))
		if home.Find(`[data-testid="home-watch"] [data-testid="mini-game"]`).Length() != 1 {
			t.Errorf("%s: the home page does not show the game to watch", who.name)
		}
		if home.Find(`[data-testid="home-cup"]`).Length() != 1 {
			t.Errorf("%s: the home page has no Daily Chess Cup panel", who.name)
		}
	}
}

// TestWatchEmpty: with no game in progress the Watch page says so and
// leads to a game.
func TestWatchEmpty(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	doc := parse(t, e.do(t, request{target: "/watch"}))
	if doc.Find(`[data-testid="watch-empty"]`).Length() != 1 || doc.Find(`[data-testid="watch-play"]`).Length() != 1 {
		t.Error("the empty Watch page has no word of it, or no link to play")
	}
	if doc.Find(`[data-testid="mini-game"]`).Length() != 0 {
		t.Error("the empty Watch page lists a game")
	}
}

// fakeInPlay is the InPlay of the Watch stream's test: the games to watch
// are ids.
type fakeInPlay struct {
	mu  sync.Mutex
	ids []int64
}

func (f *fakeInPlay) ActiveGame(context.Context, int64) (int64, error) { return 0, nil }
func (f *fakeInPlay) PlayCounts(context.Context) (int, int, error)     { return 0, 0, nil }
func (f *fakeInPlay) GamesToWatch(_ context.Context, limit int) ([]int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ids[:min(limit, len(f.ids))], nil
}

// TestWatchStream: the Watch page's one stream sends the list at once,
// then a listed game's mini-board alone after its move, and the list
// again, empty, when the game ends; a guest's stream, like a spectator's,
// is taken out of net/http, and the server's shutdown ends it and the
// hub's loop.
func TestWatchStream(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games,
		InPlay: &fakeInPlay{ids: []int64{testGameID}}, ClockSync: 50 * time.Millisecond})
	srv := serveRoutes(h, nil)
	defer srv.Close()

	s := openWatchStream(t, srv.URL+"/watch/events")
	defer s.close(t)
	if !detached(s.resp) {
		t.Error("the guest's Watch stream was not taken out of net/http")
	}
	ev := s.nextWhere(t, func(ev sseEvent) bool { return ev.name != "" })
	if ev.name != views.EventWatchList || !strings.Contains(ev.data, `data-game-id="7"`) || !strings.Contains(ev.data, `data-ply="1"`) {
		t.Fatalf("first event %q: %.300s, want the list with game 7 at ply 1", ev.name, ev.data)
	}
	if !strings.Contains(ev.data, ">ayse<") || !strings.Contains(ev.data, ">bora<") {
		t.Errorf("the list does not name the players: %.500s", ev.data)
	}

	games.setSnap(testSnapshot(t, time.Now(), "e2e4", "e7e5"))
	games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{Stamp: game.Stamp{Ply: 2, Time: time.Now()}, Side: chess.Black}})
	ev = s.nextWhere(t, func(ev sseEvent) bool { return ev.name != "" })
	if ev.name != views.WatchGameEvent(testGameID) || !strings.Contains(ev.data, `data-ply="2"`) || strings.Contains(ev.data, "<li") {
		t.Fatalf("after the move: event %q: %.300s, want game 7's mini-board alone at ply 2", ev.name, ev.data)
	}

	over := testSnapshot(t, time.Now(), "e2e4", "e7e5")
	over.Status = game.Finished
	games.setSnap(over)
	games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Ended{Stamp: game.Stamp{Ply: 2, Time: time.Now()}}})
	ev = s.nextWhere(t, func(ev sseEvent) bool { return ev.name != "" })
	if ev.name != views.EventWatchList || strings.Contains(ev.data, `data-game-id="7"`) || !strings.Contains(ev.data, `data-testid="watch-empty"`) {
		t.Fatalf("after the end: event %q: %.300s, want the empty list", ev.name, ev.data)
	}
}

// openWatchStream opens a Watch stream as a guest and starts reading it.
func openWatchStream(t *testing.T, target string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	s := &stream{resp: resp, events: make(chan sseEvent, 16), done: make(chan struct{}), cancel: cancel}
	go s.read()
	return s
}

// busFeeds is a GameFeeds whose feeds read games from a fake service, as
// the bus would carry another node's games; follows counts the feeds.
type busFeeds struct {
	games   *fakeGames
	mu      sync.Mutex
	follows int
}

func (b *busFeeds) Follow(_ context.Context, id int64) (GameFeed, error) {
	b.mu.Lock()
	b.follows++
	b.mu.Unlock()
	return &localFeed{games: b.games, id: id, sub: b.games.Subscribe(id)}, nil
}

// TestWatchFromBus: on a node of a cluster, the Watch list reads the
// games other nodes own through the bus, never through the local service
// (which would claim them), and follows their moves there; without a bus
// it leaves them out.
func TestWatchFromBus(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	remote := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	local := newFakeGames()
	feeds := &busFeeds{games: remote}
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	other, err := url.Parse("http://node-b.test")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: local, Chat: local, Voice: local,
		InPlay: &fakeInPlay{ids: []int64{testGameID}}, Owners: ownersAt{owner: other}, ClockSync: 50 * time.Millisecond}

	alone := New(cfg)
	doc := parse(t, httpGet(t, alone, "/watch"))
	if n := doc.Find(`[data-testid="mini-game"]`).Length(); n != 0 {
		t.Errorf("without a bus: %d games listed, want none", n)
	}

	cfg.Feeds = feeds
	h := New(cfg)
	doc = parse(t, httpGet(t, h, "/watch"))
	if doc.Find(`[data-testid="mini-game"][data-game-id="7"]`).Length() != 1 {
		t.Fatal("with a bus: game 7 is not listed")
	}
	srv := serveRoutes(h, nil)
	defer srv.Close()
	s := openWatchStream(t, srv.URL+"/watch/events")
	defer s.close(t)
	s.nextWhere(t, func(ev sseEvent) bool { return ev.name == views.EventWatchList })
	// The hub's loop follows the game on the bus: wait for its feed.
	for deadline := time.Now().Add(5 * time.Second); remote.hub.Subscribers(testGameID) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the hub does not follow game 7 on the bus")
		}
	}
	remote.setSnap(testSnapshot(t, time.Now(), "e2e4", "e7e5"))
	remote.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{Stamp: game.Stamp{Ply: 2, Time: time.Now()}, Side: chess.Black}})
	ev := s.nextWhere(t, func(ev sseEvent) bool { return ev.name != "" })
	if ev.name != views.WatchGameEvent(testGameID) || !strings.Contains(ev.data, `data-ply="2"`) {
		t.Fatalf("after the move on the bus: event %q: %.300s", ev.name, ev.data)
	}
	local.mu.Lock()
	defer local.mu.Unlock()
	for _, c := range local.calls {
		if c.method == "Game" || c.method == "Subscribe" {
			t.Errorf("the local service was asked %s of game %d, owned by another node", c.method, c.game)
		}
	}
}

// httpGet answers a guest's GET of target by h's routes.
func httpGet(t *testing.T, h *Handler, target string) *http.Response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.Routes().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	return rec.Result()
}
