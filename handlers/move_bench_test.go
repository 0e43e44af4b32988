package handlers

import (
	"context"
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

// BenchmarkMoveRequest measures one move posted through the whole site
// as htmx posts it from the board (every middleware, the session, the
// move limit, the game's table, the move's commit to a real SQLite file
// and its events to the game's hub), with no stream open: the request's
// own cost, its allocations above all, which the collector pays for at
// a thousand moves a second. Every eight plies the game is resigned and
// another started, off the clock.
func BenchmarkMoveRequest(b *testing.B) {
	e := newStackEnv(b, RateLimit{Every: time.Nanosecond, Burst: 1 << 30})
	a, c := e.player(b, "ayse"), e.player(b, "bora")
	var (
		id           int64
		white, black player
		path         string
	)
	newGame := func() {
		if id != 0 {
			if err := e.games.Resign(context.Background(), id, white.ID); err != nil {
				b.Fatal(err)
			}
		}
		id, white, black = e.privateGame(b, a, c)
		path = "/games/" + strconv.FormatInt(id, 10) + "/moves"
	}
	newGame()
	ply := 0
	b.ReportAllocs()
	for b.Loop() {
		if ply == len(knightShuffle) {
			b.StopTimer()
			newGame()
			ply = 0
			b.StartTimer()
		}
		p := white
		if ply%2 == 1 {
			p = black
		}
		req := httptest.NewRequest(http.MethodPost, path,
			strings.NewReader("uci="+knightShuffle[ply]+"&ply="+strconv.Itoa(ply)))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("HX-Request", "true")
		req.AddCookie(p.cookie)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNoContent {
			b.Fatalf("ply %d: status %d: %s", ply, rec.Code, rec.Body)
		}
		ply++
	}
}
