package handlers

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// knightShuffle is eight legal plies that bring the knights out and home
// again: the starting position comes back once, never three times.
var knightShuffle = []string{"g1f3", "g8f6", "b1c3", "b8c6", "c3b1", "c6b8", "f3g1", "f6g8"}

// shuffleGames plays knightShuffle over and over in private games between
// two players: every eight plies the game is resigned and another started,
// off the benchmark's clock.
type shuffleGames struct {
	e            *stackEnv
	a, c         player
	id           int64
	white, black player
	ply          int
}

func newShuffleGames(b *testing.B, e *stackEnv, a, c player) *shuffleGames {
	g := &shuffleGames{e: e, a: a, c: c}
	g.id, g.white, g.black = e.privateGame(b, g.a, g.c)
	return g
}

// next returns the next move's address, its fields URL-encoded and its
// player.
func (g *shuffleGames) next(b *testing.B) (path, move string, p player) {
	if g.ply == len(knightShuffle) {
		b.StopTimer()
		if err := g.e.games.Resign(context.Background(), g.id, g.white.ID); err != nil {
			b.Fatal(err)
		}
		g.id, g.white, g.black = g.e.privateGame(b, g.a, g.c)
		g.ply = 0
		b.StartTimer()
	}
	p = g.white
	if g.ply%2 == 1 {
		p = g.black
	}
	move = "uci=" + knightShuffle[g.ply] + "&ply=" + strconv.Itoa(g.ply)
	g.ply++
	return "/games/" + strconv.FormatInt(g.id, 10) + "/moves", move, p
}

// BenchmarkMoveRequest measures one move posted through the whole site
// as htmx posts it from the board, in the address (every middleware, the
// session, the move limit, the game's table, the move's commit to a real
// SQLite file and its events to the game's hub), with no stream open: the
// request's own cost, its allocations above all, which the collector pays
// for at a thousand moves a second.
func BenchmarkMoveRequest(b *testing.B) {
	e := newStackEnv(b, RateLimit{Every: time.Nanosecond, Burst: 1 << 30})
	games := newShuffleGames(b, e, e.player(b, "ayse"), e.player(b, "bora"))
	b.ReportAllocs()
	for b.Loop() {
		path, move, p := games.next(b)
		req := httptest.NewRequest(http.MethodPost, path+"?"+move, nil)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("HX-Request", "true")
		req.AddCookie(p.cookie)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNoContent {
			b.Fatalf("%s %s: status %d: %s", path, move, rec.Code, rec.Body)
		}
	}
}

// BenchmarkMoveOverH2C posts moves through the whole site over HTTP/2
// without TLS, as a reverse proxy passes them on (ServeH2C): in the
// address without a body, as the board posts them, and in a form's body,
// as the page without JavaScript does. Over HTTP/2 a body is a second
// frame, which the connection's goroutine hands to the handler's in a
// buffer of x/net's. Client and server share the process, so each figure
// is the round trip's, both ends included.
func BenchmarkMoveOverH2C(b *testing.B) {
	e := newStackEnv(b, RateLimit{Every: time.Nanosecond, Burst: 1 << 30})
	a, c := e.player(b, "ayse"), e.player(b, "bora")
	srv := httptest.NewUnstartedServer(e.h)
	startH2C(b, srv)
	defer srv.Close()
	for _, way := range []struct {
		name string
		req  func(path, move string) (*http.Request, error)
	}{
		{"address", func(path, move string) (*http.Request, error) {
			return http.NewRequest(http.MethodPost, srv.URL+path+"?"+move, nil)
		}},
		{"body", func(path, move string) (*http.Request, error) {
			return http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(move))
		}},
	} {
		b.Run(way.name, func(b *testing.B) {
			games := newShuffleGames(b, e, a, c)
			b.ReportAllocs()
			for b.Loop() {
				path, move, p := games.next(b)
				req, err := way.req(path, move)
				if err != nil {
					b.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("HX-Request", "true")
				req.AddCookie(p.cookie)
				postOverH2C(b, srv, req, http.StatusNoContent)
			}
		})
	}
}

// postOverH2C sends req from srv's own origin with srv's client, reads the
// answer to its end and fails b unless its status is want.
func postOverH2C(b *testing.B, srv *httptest.Server, req *http.Request, want int) {
	req.Header.Set("Origin", srv.URL)
	resp, err := srv.Client().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != want {
		b.Fatalf("%s %s: status %d, want %d", req.Method, req.URL, resp.StatusCode, want)
	}
}
