package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/cosmetics"
	"satranc/engine/lobby"
	"satranc/engine/play"
	"satranc/engine/tourney"
	"satranc/store"
)

func TestStreamTotalFor(t *testing.T) {
	tests := []struct {
		nofile uint64
		want   int
	}{
		{0, 786_432},          // unknown: as for 1<<20
		{64, 32},              // too small for the reserve: half
		{511, 255},            // still too small
		{512, 256},            // the reserve of 256 exactly
		{1024, 768},           // the usual soft limit: DefaultStreamTotal
		{65_536, 49_152},      // the documented systemd unit
		{1 << 20, 786_432},    // a common hard limit
		{1 << 63, 786_432},    // RLIM_INFINITY
		{^uint64(0), 786_432}, // RLIM_INFINITY on Linux
	}
	for _, tc := range tests {
		if got := StreamTotalFor(tc.nofile); got != tc.want {
			t.Errorf("StreamTotalFor(%d) = %d, want %d", tc.nofile, got, tc.want)
		}
	}
	if got := StreamTotalFor(1024); got != DefaultStreamTotal {
		t.Errorf("DefaultStreamTotal = %d, want StreamTotalFor(1024) = %d", DefaultStreamTotal, got)
	}
}

func TestStreamLimitsResolved(t *testing.T) {
	tests := []struct {
		in, want StreamLimits
	}{
		{StreamLimits{}, StreamLimits{DefaultStreamsPerMember, DefaultStreamsPerAddress, DefaultStreamTotal}},
		{StreamLimits{1, 2, 3}, StreamLimits{1, 2, 3}},
		{StreamLimits{-1, -1, -1}, StreamLimits{-1, -1, -1}},
	}
	for _, tc := range tests {
		if got := tc.in.Resolved(); got != tc.want {
			t.Errorf("%+v.Resolved() = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// TestStreamLimiter: each cap refuses with its own reason, a refusal
// takes nothing (the other caps' counts are given back), and released
// slots, once each however often, free their place.
func TestStreamLimiter(t *testing.T) {
	l := newStreamLimiter(StreamLimits{PerMember: 2, PerAddress: 3, Total: 5})
	var held []*streamSlot
	take := func(member int64, addr, wantCap string) {
		t.Helper()
		s, err := l.take(member, addr)
		switch {
		case wantCap == "" && err != nil:
			t.Fatalf("take(%d, %q) = %v, want a slot", member, addr, err)
		case wantCap == "":
			held = append(held, s)
		default:
			refused, ok := err.(*streamRefusedError)
			if !ok || refused.reason != wantCap {
				t.Fatalf("take(%d, %q) = %v, want a refusal per %s", member, addr, err, wantCap)
			}
		}
	}
	take(1, "a", "")
	take(1, "a", "")
	take(1, "a", streamCapMember)
	take(2, "a", "")
	take(0, "a", streamCapAddress) // a guest
	take(2, "a", streamCapAddress)
	take(2, "b", "")
	take(0, "c", "")
	take(0, "d", streamCapTotal)
	take(3, "", streamCapTotal) // forwarded within a cluster: no address
	if got := l.open(); got != 5 {
		t.Fatalf("%d slots held, want 5: a refusal kept a count", got)
	}
	if l.member.Held(2) != 2 || l.addr.Held("a") != 3 || l.addr.Held("d") != 0 || l.member.Held(3) != 0 {
		t.Errorf("counts after the refusals: member 2 %d, a %d, d %d, member 3 %d; want 2, 3, 0, 0",
			l.member.Held(2), l.addr.Held("a"), l.addr.Held("d"), l.member.Held(3))
	}
	held[0].release()
	held[0].release() // a second release gives back nothing more
	take(1, "a", "")
	for _, s := range held[1:] {
		s.release()
	}
	held[len(held)-1].release()
	if got := l.open(); got != 0 {
		t.Errorf("%d slots held after every release, want 0", got)
	}
	var none *streamSlot
	none.release() // a stream the limits did not see
}

// TestStreamLimitOff: -1 is no cap.
func TestStreamLimitOff(t *testing.T) {
	l := newStreamLimiter(StreamLimits{PerMember: -1, PerAddress: -1, Total: -1})
	for i := range 1000 {
		if _, err := l.take(1, "a"); err != nil {
			t.Fatalf("stream %d refused without caps: %v", i+1, err)
		}
	}
}

// streamEnv is the whole site on a real SQLite store (as stackEnv), served
// by a real HTTP server, with small caps on the event streams. The
// server trusts the proxy at the loopback address, so that a test sets
// each request's client address with X-Forwarded-For, as the proxy would.
type streamEnv struct {
	t       *testing.T
	h       *Handler
	srv     *httptest.Server
	games   *play.Service
	metrics *Metrics
	ayse    player
	bora    player
	cemil   player
	deniz   player
	gameID  int64
	streams []*http.Response
}

// newStreamEnv returns a streamEnv with limits; owners makes it a node
// of a cluster (nil: a single node).
func newStreamEnv(t *testing.T, limits StreamLimits, owners Owners) *streamEnv {
	t.Helper()
	discard := slog.New(slog.DiscardHandler)
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "streams.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	accounts, err := account.NewService(st, account.NewHasher(account.TestParams), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	games := play.New(play.Config{Store: st, Logger: discard})
	t.Cleanup(games.Close)
	lb := lobby.New(lobby.Config{Games: games, Players: st, Balances: st, BotFillAfter: -1, Logger: discard})
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { lb.Run(ctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	proxies, err := ParseTrustedProxies("127.0.0.1,::1")
	if err != nil {
		t.Fatal(err)
	}
	metrics := NewMetrics(MetricsConfig{})
	h := New(Config{
		Logger: discard, DB: st, Accounts: accounts, Metrics: metrics,
		AuthLimit: looseLimit, MoveLimit: looseLimit, CreateLimit: looseLimit,
		Games: games, Chat: games, Voice: games, Users: st, Lobby: lb, Bonus: st, Leaderboard: st, Profiles: st,
		Cosmetics: cosmetics.NewService(st), Tournaments: tourney.New(tourney.Config{Store: st, Logger: discard}),
		Admin: st, Reports: st, Voided: games, Settlements: st, InPlay: st,
		TrustedProxies: proxies, StreamLimits: limits, Owners: owners,
		// A stream taken out of net/http notices a client gone at its
		// next tick.
		ClockSync: 20 * time.Millisecond,
	})
	e := &streamEnv{t: t, h: h, srv: httptest.NewServer(h.Routes()), games: games, metrics: metrics}
	t.Cleanup(e.close)
	signUp := func(name string) player {
		u, s, err := accounts.SignUp(context.Background(), name, "correct horse", "en")
		if err != nil {
			t.Fatalf("sign up %s: %v", name, err)
		}
		return player{User: u, cookie: &http.Cookie{Name: sessionCookie, Value: s.Token}}
	}
	e.ayse, e.bora, e.cemil, e.deniz = signUp("ayse"), signUp("bora"), signUp("cemil"), signUp("deniz")
	id, token, err := games.CreatePrivateGame(context.Background(), e.ayse.ID, clock.Control{Initial: 15 * time.Minute, Increment: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := games.JoinPrivateGame(context.Background(), e.bora.ID, token); err != nil {
		t.Fatal(err)
	}
	e.gameID = id
	return e
}

// playE4 has the game's white player play 1.e4 from the client address
// addr, and returns them.
func (e *streamEnv) playE4(addr string) player {
	e.t.Helper()
	snap, err := e.games.Game(context.Background(), e.gameID)
	if err != nil {
		e.t.Fatal(err)
	}
	white := e.ayse
	if side, _ := snap.SideOf(e.bora.ID); side == chess.White {
		white = e.bora
	}
	form := url.Values{"move": {"e4"}, "ply": {"0"}}
	req, err := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/games/%d/moves", e.srv.URL, e.gameID), strings.NewReader(form.Encode()))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	req.Header.Set("X-Forwarded-For", addr)
	req.AddCookie(white.cookie)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	body := readBody(e.t, resp)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		e.t.Errorf("1.e4 by %s: %d: %.300s", white.Name, resp.StatusCode, body)
	}
	return white
}

// close ends the streams still open, then the server.
func (e *streamEnv) close() {
	for _, resp := range e.streams {
		resp.Body.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := e.h.detached.end(ctx); err != nil {
		e.t.Error(err)
	}
	e.srv.Close()
}

// get sends a GET of target as p (a guest when p has no cookie) from the
// client address addr, with the header pairs kv.
func (e *streamEnv) get(target string, p player, addr string, kv ...string) *http.Response {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+target, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	if p.cookie != nil {
		req.AddCookie(p.cookie)
	}
	req.Header.Set("X-Forwarded-For", addr)
	for i := 0; i+1 < len(kv); i += 2 {
		req.Header.Set(kv[i], kv[i+1])
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("GET %s: %v", target, err)
	}
	return resp
}

// open opens the stream at target as p from addr, which must be
// accepted, and keeps it open until the test ends (or the caller closes
// its body).
func (e *streamEnv) open(target string, p player, addr string) *http.Response {
	e.t.Helper()
	resp := e.get(target, p, addr, "Accept", "text/event-stream")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		body := readBody(e.t, resp)
		e.t.Fatalf("stream %s as %q from %s: %d %s: %.300s", target, p.Name, addr, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	e.streams = append(e.streams, resp)
	return resp
}

// refused checks that the stream at target as p from addr is refused with
// 429, a Retry-After, an HTML page (at which EventSource stops) and the
// English text of message id, and, over HTTP/1.1, that the connection is
// not kept (an HTTP/2 connection carries other requests).
func (e *streamEnv) refused(target string, p player, addr, id string) {
	e.t.Helper()
	resp := e.get(target, p, addr, "Accept", "text/event-stream")
	defer resp.Body.Close()
	what := fmt.Sprintf("stream %s as %q from %s", target, p.Name, addr)
	if resp.StatusCode != http.StatusTooManyRequests {
		// Not read: an accepted stream's body does not end.
		e.t.Errorf("%s: status %d %s, want 429", what, resp.StatusCode, resp.Header.Get("Content-Type"))
		return
	}
	body := readBody(e.t, resp)
	if got := resp.Header.Get("Retry-After"); got != "30" {
		e.t.Errorf("%s: Retry-After %q, want 30", what, got)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		e.t.Errorf("%s: Content-Type %q, want an HTML page", what, ct)
	}
	if resp.ProtoMajor == 1 && !resp.Close {
		e.t.Errorf("%s: the connection is kept for another request", what)
	}
	if want := text(e.t, "en", id); !strings.Contains(body, want) {
		e.t.Errorf("%s: the page lacks %q: %.300s", what, want, body)
	}
}

// served checks that a page is answered 200 from addr.
func (e *streamEnv) served(target string, p player, addr string) {
	e.t.Helper()
	resp := e.get(target, p, addr)
	readBody(e.t, resp)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		e.t.Errorf("GET %s from %s while the streams are capped: %d, want 200", target, addr, resp.StatusCode)
	}
}

// waitOpen waits until n streams hold a slot.
func (e *streamEnv) waitOpen(n int) {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for e.h.streams.open() != n {
		if time.Now().After(deadline) {
			e.t.Fatalf("%d streams hold a slot, want %d", e.h.streams.open(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestStreamLimits opens event streams on a real server past each cap:
// the stream past a cap is refused with 429 and a message, while another
// member's or another address's stream is still accepted, pages are
// served and a player's move is played; a stream closed frees its slot,
// whether net/http serves it or it was taken out of net/http.
func TestStreamLimits(t *testing.T) {
	e := newStreamEnv(t, StreamLimits{PerMember: 3, PerAddress: 5, Total: 8}, nil)
	game := fmt.Sprintf("/games/%d/events", e.gameID)
	const standings = "/tournaments/daily/events"
	var guest player
	a, b := "198.51.100.1", "198.51.100.2"

	// The member cap: Cemil watches the game (taken out of net/http),
	// the Watch list (out too) and the standings (served by net/http).
	spectator := e.open(game, e.cemil, a)
	watch := e.open("/watch/events", e.cemil, a)
	e.open(standings, e.cemil, a)
	if detached(spectator) == false || detached(watch) == false {
		t.Fatal("the spectator's and the Watch streams were not taken out of net/http: the test misses that case")
	}
	// Every kind of stream is capped (every route's path ends in
	// streamPathSuffix), and the cap holds from another address too.
	for _, target := range []string{game, "/watch/events", "/watch/events?home=1", standings, "/lobby/wait/events"} {
		e.refused(target, e.cemil, a, "error.too_many_streams")
	}
	e.refused(game, e.cemil, b, "error.too_many_streams")
	// Another member at the same address still gets in.
	e.open(game, e.deniz, a)

	// The address cap: Ayşe, a player, opens her game's stream from
	// address a, and a guest there watches it: five streams at a.
	e.open(game, e.ayse, a)
	e.refused(game, guest, a, "error.too_many_streams")
	e.refused(standings, e.bora, a, "error.too_many_streams")
	// From another address, Bora (the other player) and a guest get in.
	e.open(game, e.bora, b)
	e.open(game, guest, b)
	e.waitOpen(7)

	// Pages are served to the capped address, and a player's move is
	// played and reaches the streams.
	e.served("/healthz", guest, a)
	e.served("/", guest, a)
	e.served("/", e.cemil, a)
	e.served(fmt.Sprintf("/games/%d", e.gameID), e.cemil, a)
	e.playE4(a)
	if snap, err := e.games.Game(context.Background(), e.gameID); err != nil || snap.Ply != 1 {
		t.Errorf("after the move: ply %d, %v; want 1", snap.Ply, err)
	}

	// The total cap: one more from a third address fills it, the next is
	// refused with the server's own message, in the page's language.
	e.open(standings, guest, "198.51.100.3")
	e.waitOpen(8)
	e.refused(standings, guest, "198.51.100.4", "error.streams_busy")
	resp := e.get(standings, guest, "198.51.100.4", "Accept-Language", "tr")
	if body := readBody(t, resp); resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, text(t, "tr", "error.streams_busy")) {
		t.Errorf("refused in Turkish: %d: %.300s", resp.StatusCode, body)
	}
	resp.Body.Close()

	// Closing a stream frees its slot: one taken out of net/http, given
	// back when its goroutine notices the client gone ...
	spectator.Body.Close()
	e.waitOpen(7)
	e.open(game, e.cemil, a)
	// ... and one served by net/http, given back when its handler returns.
	e.refused(game, guest, "198.51.100.5", "error.streams_busy")
	e.streams[len(e.streams)-2].Body.Close() // the guest's standings from .3
	e.waitOpen(7)
	e.open(game, guest, "198.51.100.5")

	for _, c := range []struct {
		reason string
		want   float64
	}{{streamCapMember, 6}, {streamCapAddress, 2}, {streamCapTotal, 3}} {
		if got := testutil.ToFloat64(e.metrics.refused.WithLabelValues(c.reason)); got != c.want {
			t.Errorf("satranc_sse_streams_refused_total{reason=%q} = %v, want %v", c.reason, got, c.want)
		}
	}

	// Every stream ended: every slot is given back.
	for _, resp := range e.streams {
		resp.Body.Close()
	}
	e.streams = nil
	e.waitOpen(0)
}

// TestStreamLimitForwardedInCluster: within a cluster, a stream another
// node forwarded (which counted the client's address there) is not
// counted against the forwarding node's address; on a single node, or
// without the cluster's secret, the header is no way around the cap.
func TestStreamLimitForwardedInCluster(t *testing.T) {
	const standings = "/tournaments/daily/events"
	var guest player
	for _, c := range []struct {
		name   string
		owners Owners
		mark   string
		want   int
	}{
		{"a single node", nil, "1", http.StatusTooManyRequests},
		{"a cluster", ownAll{}, testClusterSecret, http.StatusOK},
		{"a cluster, a client's mark", ownAll{}, "1", http.StatusTooManyRequests},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newStreamEnv(t, StreamLimits{PerMember: -1, PerAddress: 1, Total: 10}, c.owners)
			e.open(standings, guest, "198.51.100.1")
			resp := e.get(standings, guest, "198.51.100.1", "Accept", "text/event-stream", ForwardedHeader, c.mark)
			e.streams = append(e.streams, resp)
			if resp.StatusCode != c.want {
				t.Errorf("a stream marked %s from an address at its cap: %d, want %d", ForwardedHeader, resp.StatusCode, c.want)
			}
		})
	}
}

// ownAll is a cluster in which this node owns every game and the lobby.
type ownAll struct{}

func (ownAll) GameOwner(context.Context, int64) (*url.URL, error)    { return nil, nil }
func (ownAll) InviteOwner(context.Context, string) (*url.URL, error) { return nil, nil }
func (ownAll) LobbyOwner(context.Context) (*url.URL, error)          { return nil, nil }
func (ownAll) Forward(next http.Handler, _ Forwarding) http.Handler  { return next }
func (ownAll) Forwarded(r *http.Request) bool {
	return r.Header.Get(ForwardedHeader) == testClusterSecret
}
