package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/play"
	"satranc/store"
	"satranc/views"
)

func TestLagMeter(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var off *lagMeter
	off.open(1, 2)
	if _, ok := off.ping(1, 2, t0); ok || off.echo(1, 2, "x", t0, 0) || off.estimate(1, 2, t0) != 0 {
		t.Error("a nil lagMeter measured something")
	}

	m := newLagMeter()
	if _, ok := m.ping(1, 2, t0); ok {
		t.Error("ping without an open stream")
	}
	m.open(1, 2)
	m.open(1, 2) // a second tab
	n1, _ := m.ping(1, 2, t0)
	n2, _ := m.ping(1, 2, t0.Add(time.Second))
	n3, _ := m.ping(1, 2, t0.Add(time.Second))
	n4, _ := m.ping(1, 2, t0)
	if n1 == n2 || n1 == "" {
		t.Fatalf("nonces %q and %q", n1, n2)
	}
	for _, tc := range []struct {
		name         string
		game, user   int64
		nonce        string
		held         time.Duration // by the page, before sending it back
		want         bool
		wantEstimate time.Duration
	}{
		{"another player", 1, 3, n1, 0, false, 0},
		{"another game", 9, 2, n1, 0, false, 0},
		{"unknown nonce", 1, 2, "zzz", 0, false, 0},
		{"the second ping", 1, 2, n2, 0, true, 300 * time.Millisecond},
		{"its echo again", 1, 2, n2, 0, false, 300 * time.Millisecond},
		{"the first ping, later", 1, 2, n1, 0, true, 300 * time.Millisecond}, // 300 ms and 1.3 s: the lower middle
		{"held longer than the time since", 1, 2, n3, 400 * time.Millisecond, true, 300 * time.Millisecond},
		{"held 100 ms of 1.3 s", 1, 2, n4, 100 * time.Millisecond, true, 1200 * time.Millisecond}, // 300 ms, 1.2 s, 1.3 s
	} {
		at := t0.Add(time.Second + 300*time.Millisecond)
		if got := m.echo(tc.game, tc.user, tc.nonce, at, tc.held); got != tc.want {
			t.Errorf("%s: echo = %v, want %v", tc.name, got, tc.want)
		}
		if got := m.estimate(1, 2, at); got != tc.wantEstimate {
			t.Errorf("%s: estimate = %v, want %v", tc.name, got, tc.wantEstimate)
		}
	}
	m.close(1, 2)
	if m.estimate(1, 2, t0.Add(2*time.Second)) == 0 {
		t.Error("the measurement ended with one of two streams")
	}
	m.close(1, 2)
	if got := m.estimate(1, 2, t0.Add(2*time.Second)); got != 0 || len(m.players) != 0 {
		t.Errorf("after the last stream: estimate %v, %d players kept", got, len(m.players))
	}
}

// lagEnv is the site with lag compensation on or off, on a real SQLite
// store and a real server (the streams are read as a browser reads
// them).
type lagEnv struct {
	*stackEnv
	handler *Handler
	srv     *httptest.Server
}

func newLagEnv(tb testing.TB, on bool, ping time.Duration) *lagEnv {
	tb.Helper()
	discard := slog.New(slog.DiscardHandler)
	dbPath := filepath.Join(tb.TempDir(), "lag.db")
	st, err := store.Open(context.Background(), dbPath)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	accounts, err := account.NewService(st, account.NewHasher(account.TestParams), time.Hour)
	if err != nil {
		tb.Fatal(err)
	}
	games := play.New(play.Config{Store: st, Logger: discard})
	tb.Cleanup(games.Close)
	h := New(Config{
		Logger: discard, DB: st, Accounts: accounts, AuthLimit: looseLimit, MoveLimit: looseLimit, CreateLimit: looseLimit,
		Games: games, Chat: games, Voice: games, Users: st, LagCompensation: on, LagPing: ping,
	})
	srv := serveRoutes(h, nil)
	tb.Cleanup(srv.Close)
	return &lagEnv{
		stackEnv: &stackEnv{accountEnv: &accountEnv{h: h.Routes(), store: st}, accounts: accounts, games: games, dbPath: dbPath},
		handler:  h, srv: srv,
	}
}

// blitzGame has a and b play a private 3+0 game; it returns it with its
// White and Black.
func (e *lagEnv) blitzGame(tb testing.TB, a, b player) (id int64, white, black player) {
	tb.Helper()
	ctx := context.Background()
	id, token, err := e.games.CreatePrivateGame(ctx, a.ID, clock.MustParse("3+0"))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := e.games.JoinPrivateGame(ctx, b.ID, token); err != nil {
		tb.Fatal(err)
	}
	snap := e.snapshot(tb, id)
	if side, _ := snap.SideOf(a.ID); side == chess.White {
		return id, a, b
	}
	return id, b, a
}

// openStream opens game id's event stream as p, through base (the
// server's address, or a proxy's).
func (e *lagEnv) openStream(tb testing.TB, client *http.Client, base string, id int64, p player) *stream {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/games/"+strconv.FormatInt(id, 10)+"/events", nil)
	if err != nil {
		tb.Fatal(err)
	}
	req.AddCookie(p.cookie)
	resp, err := client.Do(req)
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	s := &stream{resp: resp, events: make(chan sseEvent, 64), done: make(chan struct{}), cancel: cancel}
	go s.read()
	return s
}

// postForm posts form to base+path as p and returns the status.
func postForm(tb testing.TB, client *http.Client, base, path string, form url.Values, p player) int {
	tb.Helper()
	req, err := http.NewRequest(http.MethodPost, base+path, strings.NewReader(form.Encode()))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	return postAs(tb, client, req, p)
}

// postMove posts a move's fields for p as the board does: in the address,
// without a body (static/js/board.js).
func postMove(tb testing.TB, client *http.Client, base, path string, move url.Values, p player) int {
	tb.Helper()
	req, err := http.NewRequest(http.MethodPost, base+path+"?"+move.Encode(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded") // as htmx sends it
	req.Header.Set("HX-Request", "true")
	return postAs(tb, client, req, p)
}

// postAs sends req with p's session and returns the answer's status.
func postAs(tb testing.TB, client *http.Client, req *http.Request, p player) int {
	tb.Helper()
	req.AddCookie(p.cookie)
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// postEcho posts the lag ping nonce back for p as the game page does: in
// the address, without a body (static/js/board.js).
func postEcho(tb testing.TB, client *http.Client, base, path, nonce string, p player) int {
	tb.Helper()
	req, err := http.NewRequest(http.MethodPost, base+path+"/lag?"+url.Values{"n": {nonce}}.Encode(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return postAs(tb, client, req, p)
}

func isPing(ev sseEvent) bool { return ev.name == views.EventLagPing }

// TestGameLagPingEcho: a player's stream of a live game pings the page,
// the echo is measured, and the player's next move gets the measured
// time back, no more than the move cost; a spectator's stream has no
// pings.
func TestGameLagPingEcho(t *testing.T) {
	e := newLagEnv(t, true, 50*time.Millisecond)
	id, white, black := e.blitzGame(t, e.player(t, "ayse"), e.player(t, "bora"))
	watcher := e.player(t, "cemil")
	client := e.srv.Client()
	path := "/games/" + strconv.FormatInt(id, 10)

	ws := e.openStream(t, client, e.srv.URL, id, white)
	defer ws.close(t)
	spectator := e.openStream(t, client, e.srv.URL, id, watcher)
	defer spectator.close(t)

	ping := ws.nextWhere(t, isPing)
	if ping.data == "" {
		t.Fatal("a ping without a nonce")
	}
	if code := postEcho(t, client, e.srv.URL, path, ping.data, white); code != http.StatusNoContent {
		t.Fatalf("POST lag = %d, want 204", code)
	}
	if est := e.handler.lag.estimate(id, white.ID, time.Now()); est <= 0 || est > sseTimeout {
		t.Errorf("estimate after one echo = %v, want a round trip", est)
	}
	// Black's echo of White's ping counts for nobody.
	next := ws.nextWhere(t, isPing)
	if code := postEcho(t, client, e.srv.URL, path, next.data, black); code != http.StatusNoContent {
		t.Fatalf("POST lag by the opponent = %d, want 204", code)
	}
	if est := e.handler.lag.estimate(id, black.ID, time.Now()); est != 0 {
		t.Errorf("Black's estimate = %v, from a ping to White", est)
	}
	// The nonce in a form's body counts too: once counted, it is no
	// longer awaited.
	third := ws.nextWhere(t, isPing)
	if code := postForm(t, client, e.srv.URL, path+"/lag", url.Values{"n": {third.data}}, white); code != http.StatusNoContent {
		t.Fatalf("POST lag with a form = %d, want 204", code)
	}
	if e.handler.lag.echo(id, white.ID, third.data, time.Now(), 0) {
		t.Error("the echo in a form's body was not counted: its nonce was still awaited")
	}

	// A slow line: White's round trip is 500 ms (planted, as if measured).
	for range clock.LagSamples {
		n, _ := e.handler.lag.ping(id, white.ID, time.Now().Add(-500*time.Millisecond))
		e.handler.lag.echo(id, white.ID, n, time.Now(), 0)
	}
	ctx := context.Background()
	for i, mv := range []struct {
		p   player
		uci string
	}{{white, "e2e4"}, {black, "e7e5"}, {white, "g1f3"}} {
		if code := postForm(t, client, e.srv.URL, path+"/moves", url.Values{"uci": {mv.uci}, "ply": {strconv.Itoa(i)}}, mv.p); code != http.StatusNoContent {
			t.Fatalf("move %s = %d", mv.uci, code)
		}
	}
	snap, err := e.games.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// White's clock started with Black's first move; Nf3 cost the time
	// since, and got back the 500 ms lag, but never more than it cost.
	cost := snap.Moves[2].At.Time().Sub(snap.Moves[1].At.Time())
	want := 3*time.Minute - cost + min(cost, 500*time.Millisecond)
	if got := snap.Moves[2].Clock; !within(got, want, wallSlack(cost)) {
		t.Errorf("White's clock after Nf3 = %v, want %v (the move cost %v)", got, want, cost)
	}

	time.Sleep(200 * time.Millisecond) // four ping intervals
	if hadPing(spectator) {
		t.Error("a spectator's stream has pings")
	}
}

// TestGameLagEchoWithMove: the page sends a ping's nonce back with the
// player's next move, with the milliseconds it held it, and the round trip
// is the time since the ping less that hold; a move whose hold is not a
// count of milliseconds is played all the same and measures nothing.
func TestGameLagEchoWithMove(t *testing.T) {
	e := newLagEnv(t, true, time.Hour)
	id, white, black := e.blitzGame(t, e.player(t, "ayse"), e.player(t, "bora"))
	client := e.srv.Client()
	path := "/games/" + strconv.FormatInt(id, 10)
	for _, p := range []player{white, black} {
		s := e.openStream(t, client, e.srv.URL, id, p)
		defer s.close(t)
		s.nextWhere(t, isPing) // the stream is open: its player's pings count
	}

	// White's page got a ping 800 ms ago and held it 700 ms before moving;
	// the move goes in the address, as the board posts it.
	nonce, ok := e.handler.lag.ping(id, white.ID, time.Now().Add(-800*time.Millisecond))
	if !ok {
		t.Fatal("no ping for White")
	}
	move := url.Values{"uci": {"e2e4"}, "ply": {"0"}, "lag": {nonce}, "held": {"700"}}
	if code := postMove(t, client, e.srv.URL, path+"/moves", move, white); code != http.StatusNoContent {
		t.Fatalf("move with a ping = %d, want 204", code)
	}
	if est := e.handler.lag.estimate(id, white.ID, time.Now()); est < 100*time.Millisecond || est >= 800*time.Millisecond {
		t.Errorf("White's estimate = %v, want 100 ms and the request's own time, not the 800 ms since the ping", est)
	}

	// Black's in a form's body, as the page without JavaScript posts it.
	nonce, _ = e.handler.lag.ping(id, black.ID, time.Now().Add(-800*time.Millisecond))
	move = url.Values{"uci": {"e7e5"}, "ply": {"1"}, "lag": {nonce}, "held": {"soon"}}
	if code := postForm(t, client, e.srv.URL, path+"/moves", move, black); code != http.StatusNoContent {
		t.Fatalf("move with a ping held %q = %d, want 204", move.Get("held"), code)
	}
	if est := e.handler.lag.estimate(id, black.ID, time.Now()); est != 0 {
		t.Errorf("Black's estimate = %v after a hold that is no number, want none", est)
	}
	snap, err := e.games.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Moves) != 2 {
		t.Errorf("%d moves played, want 2", len(snap.Moves))
	}
}

// hadPing reports whether a ping is among the events s has received and
// not yet read; it reads them all.
func hadPing(s *stream) bool {
	found := false
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				return found
			}
			found = found || isPing(ev)
		default:
			return found
		}
	}
}

// TestGameLagOff: without lag compensation a player's stream has no
// pings, the echo route is not there, and moves get nothing back.
func TestGameLagOff(t *testing.T) {
	e := newLagEnv(t, false, 50*time.Millisecond)
	id, white, black := e.blitzGame(t, e.player(t, "ayse"), e.player(t, "bora"))
	client := e.srv.Client()
	path := "/games/" + strconv.FormatInt(id, 10)
	ws := e.openStream(t, client, e.srv.URL, id, white)
	defer ws.close(t)
	ws.next(t)
	if code := postForm(t, client, e.srv.URL, path+"/lag", url.Values{"n": {"x"}}, white); code == http.StatusNoContent {
		t.Errorf("POST lag = %d with lag compensation off", code)
	}
	for i, mv := range []struct {
		p   player
		uci string
	}{{white, "e2e4"}, {black, "e7e5"}, {white, "g1f3"}} {
		if code := postForm(t, client, e.srv.URL, path+"/moves", url.Values{"uci": {mv.uci}, "ply": {strconv.Itoa(i)}}, mv.p); code != http.StatusNoContent {
			t.Fatalf("move %s = %d", mv.uci, code)
		}
	}
	snap := e.snapshot(t, id)
	if cost := snap.Moves[2].At.Time().Sub(snap.Moves[1].At.Time()); !within(snap.Moves[2].Clock, 3*time.Minute-cost, wallSlack(cost)) {
		t.Errorf("White's clock after Nf3 = %v, want %v", snap.Moves[2].Clock, 3*time.Minute-cost)
	}
	time.Sleep(200 * time.Millisecond)
	if hadPing(ws) {
		t.Error("a ping with lag compensation off")
	}
}

// TestRulesLag: the rules page tells the bounds of lag compensation when
// it is on, in both languages, and says nothing of it when it is off.
func TestRulesLag(t *testing.T) {
	for _, tc := range []struct {
		on   bool
		lang string
		want string
	}{
		{true, "en", "up to 500 ms a move, from an allowance of 2 seconds per game to which each of your moves adds 250 ms back"},
		{true, "tr", "hamle başına en çok 500 ms. Bunun için her oyunda 2 saniyelik bir hakkınız vardır ve her hamleniz bu hakka 250 ms ekler"},
		{false, "en", ""},
	} {
		e := newLagEnv(t, tc.on, 0)
		resp := e.do(t, request{target: "/rules?lang=" + tc.lang})
		doc := parse(t, resp)
		got := doc.Find(`[data-testid="lag-rule"]`)
		if tc.want == "" {
			if got.Length() != 0 {
				t.Errorf("lag compensation off: the rules page tells it: %q", got.Text())
			}
			continue
		}
		if !strings.Contains(got.Text(), tc.want) {
			t.Errorf("%s: lag rule %q, want it to say %q", tc.lang, got.Text(), tc.want)
		}
	}
}

// TestGameLagPingRides: a player's ping goes with the stream's events
// rather than on its own: the first rides with the first panel, ahead of
// it; with pings due only once an hour, moves and clock updates bring no
// other, and a ping of its own comes only after twice the interval
// without one (TestGameLagPingEcho, at 50 ms).
func TestGameLagPingRides(t *testing.T) {
	e := newLagEnv(t, true, time.Hour)
	id, white, black := e.blitzGame(t, e.player(t, "ayse"), e.player(t, "bora"))
	client := e.srv.Client()
	path := "/games/" + strconv.FormatInt(id, 10)
	ws := e.openStream(t, client, e.srv.URL, id, white)
	defer ws.close(t)

	first := ws.nextWhere(t, func(ev sseEvent) bool { return ev.comment == "" })
	if !isPing(first) || first.data == "" {
		t.Fatalf("first event %q, want a ping with a nonce ahead of the panel", first.name)
	}
	if panel := ws.nextWhere(t, func(ev sseEvent) bool { return ev.comment == "" }); panel.name != views.EventGame {
		t.Fatalf("after the ping: %q, want the panel", panel.name)
	}
	for i, mv := range []struct {
		p   player
		uci string
	}{{white, "e2e4"}, {black, "e7e5"}, {white, "g1f3"}} {
		if code := postForm(t, client, e.srv.URL, path+"/moves", url.Values{"uci": {mv.uci}, "ply": {strconv.Itoa(i)}}, mv.p); code != http.StatusNoContent {
			t.Fatalf("move %s = %d", mv.uci, code)
		}
		if ev := ws.nextWhere(t, func(ev sseEvent) bool { return ev.id == strconv.Itoa(i+1) }); ev.name != views.EventGame {
			t.Fatalf("ply %d: %q", i+1, ev.name)
		}
	}
	if hadPing(ws) {
		t.Error("a ping before the hour was out")
	}
}

// within reports whether got is want give or take tolerance: a move's
// time is kept on the wall clock (game.Instant), which the clocks' own
// monotonic readings differ from by a few nanoseconds.
func within(got, want, tolerance time.Duration) bool {
	return got-want <= tolerance && want-got <= tolerance
}

// wallSlack is how far an interval of d between two moves' times (the
// wall clock's, game.Instant) may be from the one the game's clocks ran
// on (the monotonic clock's): a few nanoseconds, or more while time
// synchronisation slews the wall clock (a CI run saw it gain 0.5%, 4 ms
// a move).
func wallSlack(d time.Duration) time.Duration { return time.Microsecond + d.Abs()/100 }
