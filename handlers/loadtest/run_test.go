package loadtest

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeSite is the few pages of the site the driver uses, with the same
// addresses, redirects, markup and stream framing, and just enough rules to
// catch a driver that gets them wrong: a move must come from the side to
// move with the current ply, as htmx posts it. (TestLoadtestDrivesGames in
// package main runs the driver against the real server.)
type fakeSite struct {
	t       *testing.T
	mu      sync.Mutex
	signups int
	games   []*fakeGame
	changed chan struct{} // closed and replaced at each change
	refused []string      // requests the site refused, for the test's report
	echoes  int           // lag pings sent back with moves
}

type fakeGame struct {
	players [2]string // white, black session names; "" for the seat still free
	token   string
	ply     int
	over    bool
	// pages counts the players' loads of the game's page: one each, the
	// pages the creation and the invite end on, as in a browser (fewer if
	// the run ended between them).
	pages int
}

func newFakeSite(t *testing.T) (*httptest.Server, *fakeSite) {
	s := &fakeSite{t: t, changed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "# TYPE go_goroutines gauge\ngo_goroutines 42\nprocess_resident_memory_bytes 1e+07\nsatranc_sse_streams 3\n")
	})
	mux.HandleFunc("POST /signup", func(w http.ResponseWriter, r *http.Request) {
		if !s.check(w, r, r.Header.Get("Origin") != "", "signup without Origin") {
			return
		}
		s.mu.Lock()
		s.signups++
		s.mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "session", Value: r.PostFormValue("username"), Path: "/"})
	})
	mux.HandleFunc("POST /games/private", func(w http.ResponseWriter, r *http.Request) {
		me := session(r)
		if !s.check(w, r, me != "" && r.PostFormValue("control") == control, "create") {
			return
		}
		s.mu.Lock()
		// The creator's colour is drawn as the game is made, at random on
		// the real site: here, White in even games and Black in odd ones.
		g := &fakeGame{players: [2]string{me}, token: fmt.Sprintf("tok%d", len(s.games))}
		if len(s.games)%2 == 1 {
			g.players = [2]string{"", me}
		}
		s.games = append(s.games, g)
		id := len(s.games)
		s.mu.Unlock()
		http.Redirect(w, r, "/games/"+strconv.Itoa(id), http.StatusSeeOther)
	})
	mux.HandleFunc("POST /invite/{token}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, g := range s.games {
			empty := slices.Index(g.players[:], "")
			if g.token == r.PathValue("token") && empty >= 0 && session(r) != "" {
				g.players[empty] = session(r) // the colour the creator left
				http.Redirect(w, r, "/games/"+strconv.Itoa(i+1), http.StatusSeeOther)
				return
			}
		}
		http.NotFound(w, r)
	})
	mux.HandleFunc("GET /games/{id}", func(w http.ResponseWriter, r *http.Request) {
		g, side := s.game(r)
		if g == nil {
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if side >= 0 {
			g.pages++
		}
		fmt.Fprint(w, "<!doctype html><html><body>")
		if slices.Contains(g.players[:], "") && side >= 0 {
			fmt.Fprintf(w, `<div class="invite-link"><textarea readonly data-testid="invite-link">http://%s/invite/%s</textarea></div>`, r.Host, g.token)
		}
		if side >= 0 {
			fmt.Fprintf(w, `<div class="board" data-color="%s" data-ply="%d"></div>`, [2]string{"w", "b"}[side], g.ply)
		}
		fmt.Fprint(w, "</body></html>")
	})
	mux.HandleFunc("POST /games/{id}/moves", func(w http.ResponseWriter, r *http.Request) {
		g, side := s.game(r)
		s.mu.Lock()
		// The move is in the address, without a body, as the board posts it.
		move := r.URL.Query()
		ok := g != nil && !g.over && side == g.ply%2 && move.Get("ply") == strconv.Itoa(g.ply) &&
			len(move.Get("uci")) >= 4 && r.ContentLength == 0 && r.Header.Get("HX-Request") == "true"
		// A lag ping's nonce, if the move carries one, is of this game's
		// stream, with the milliseconds it was held.
		nonce, held := move.Get("lag"), move.Get("held")
		pingGame, _, _ := strings.Cut(nonce, "-")
		heldMS, herr := strconv.Atoi(held)
		ok = ok && (nonce == "" || pingGame == r.PathValue("id") && herr == nil && heldMS >= 0)
		if ok && nonce != "" {
			s.echoes++
		}
		if ok {
			g.ply++
			close(s.changed)
			s.changed = make(chan struct{})
		}
		over := g != nil && g.over
		s.mu.Unlock()
		if over {
			// As the real site does; not a driver's mistake: a move
			// that the end of the run cut short may arrive after the
			// resignation that followed it.
			http.Error(w, "game over", http.StatusConflict)
			return
		}
		if !s.check(w, r, ok, "move") {
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /games/{id}/resign", func(w http.ResponseWriter, r *http.Request) {
		g, side := s.game(r)
		s.mu.Lock()
		if g != nil && side >= 0 {
			g.over = true
		}
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /games/{id}/events", func(w http.ResponseWriter, r *http.Request) {
		g, _ := s.game(r)
		if g == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		sent := -1
		for {
			s.mu.Lock()
			ply, changed := g.ply, s.changed
			s.mu.Unlock()
			if ply != sent {
				// A lag ping, a panel, a clock and a heartbeat, as the
				// real stream sends them.
				fmt.Fprintf(w, "event: lag-ping\ndata: %s-%d\n\n", r.PathValue("id"), ply)
				fmt.Fprintf(w, "id: %d\nevent: game\ndata: <div id=\"panel\">\ndata: %s</div>\n\n", ply, strings.Repeat("x", 20<<10))
				fmt.Fprintf(w, "event: clock-w\ndata: 600\n\n: ping\n\n")
				w.(http.Flusher).Flush()
				sent = ply
			}
			select {
			case <-r.Context().Done():
				return
			case <-changed:
			}
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		if len(s.refused) > 0 {
			t.Errorf("the site refused %d requests: %v", len(s.refused), s.refused[:min(len(s.refused), 5)])
		}
		for i, g := range s.games {
			// A game whose creation the end of the run cut short has no
			// move; one with moves must have been resigned.
			if g.ply > 0 && !g.over {
				t.Errorf("game %d left running after the run", i+1)
			}
		}
		t.Logf("%d sign-ups, %d games", s.signups, len(s.games))
	})
	return srv, s
}

func session(r *http.Request) string {
	c, err := r.Cookie("session")
	if err != nil {
		return ""
	}
	return c.Value
}

// game returns the game of the request's path and the requester's side in
// it, -1 for a spectator.
func (s *fakeSite) game(r *http.Request) (*fakeGame, int) {
	id, err := strconv.Atoi(r.PathValue("id"))
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil || id < 1 || id > len(s.games) {
		return nil, -1
	}
	g := s.games[id-1]
	for side, p := range g.players {
		if p != "" && p == session(r) {
			return g, side
		}
	}
	return g, -1
}

func (s *fakeSite) check(w http.ResponseWriter, r *http.Request, ok bool, what string) bool {
	if !ok {
		s.mu.Lock()
		s.refused = append(s.refused, what+" "+r.URL.Path)
		s.mu.Unlock()
		http.Error(w, what, http.StatusConflict)
	}
	return ok
}

// TestRunAgainstFakeSite plays a short run: games are created and joined
// by invite, every move's latency is measured, spectators watch, every
// game is resigned at the end, and a second run logs the saved users in
// again instead of signing them up.
func TestRunAgainstFakeSite(t *testing.T) {
	srv, site := newFakeSite(t)
	sessions := filepath.Join(t.TempDir(), "users.txt")
	cfg := Config{Base: strings.TrimPrefix(srv.URL, "http://") + "/", Games: 3, Duration: 1500 * time.Millisecond, Think: 20 * time.Millisecond,
		Every: 500 * time.Millisecond, MaxPly: 8, Setup: 2, Sessions: sessions, Spectators: 4, Ramp: 100 * time.Millisecond}
	for round := range 2 {
		var out bytes.Buffer
		res, err := Run(t.Context(), cfg, &out)
		t.Logf("round %d:\n%s", round, out.String())
		if err != nil {
			t.Fatal(err)
		}
		// A game's last move may be acknowledged as the run ends, before
		// its event arrives: counted, not timed (playGame).
		if timed := int64(len(res.Latencies)); res.Moves == 0 || timed > res.Moves || timed < res.Moves-int64(cfg.Games) || res.ErrorCount() != 0 {
			t.Errorf("round %d: %d moves, %d latencies, errors %v; want moves, each timed, and no error", round, res.Moves, len(res.Latencies), res.Errors)
		}
		if len(res.Samples) < 4 || res.Samples[0].Label != "before" || res.Samples[0].Goroutines != 42 || res.Samples[0].Streams != 3 {
			t.Errorf("round %d: samples %+v", round, res.Samples)
		}
		want := []string{"loadtest http://127.0.0.1:", "t=1s moves=",
			"\nresult: 3 games, 6 streams, ", "latency POST→opponent event: p50=", "errors: 0 map[]; games lost on time (not errors): 0",
			"server peak: rss=10.0MB heap=0.0MB goroutines=42"}
		if cfg.Spectators > 0 {
			want = append(want, "spectators: 4 streams open")
		}
		for _, want := range want {
			if !strings.Contains(out.String(), want) {
				t.Errorf("round %d: output lacks %q", round, want)
			}
		}
		// Each game ends by MaxPly and is replaced: 8 plies at 20ms ±50%
		// fit several times in the run.
		site.mu.Lock()
		signups, games, echoes := site.signups, len(site.games), site.echoes
		for i, g := range site.games {
			// Fewer for a game whose set-up the run's end cut short.
			if g.pages > 2 {
				t.Errorf("round %d: the players loaded game %d's page %d times, want at most 2 (one each)", round, i+1, g.pages)
			}
		}
		site.mu.Unlock()
		if echoes == 0 {
			t.Errorf("round %d: no move carried a lag ping back", round)
		}
		if signups != 2*cfg.Games+1 { // the players and the spectator, once
			t.Errorf("round %d: %d sign-ups, want %d", round, signups, 2*cfg.Games+1)
		}
		if games <= (round+1)*cfg.Games {
			t.Errorf("round %d: %d games in all; finished games were not replaced", round, games)
		}
		cfg.Spectators = 0 // they cost two seconds of settling
	}
}

// TestRunLeavesNoGameRunning: a run that ends before its pairs play (here
// at once: a duration of a nanosecond, the games created in the set-up)
// resigns every game it created, as one that played does.
func TestRunLeavesNoGameRunning(t *testing.T) {
	srv, site := newFakeSite(t)
	cfg := Config{Base: strings.TrimPrefix(srv.URL, "http://") + "/", Games: 3, Duration: time.Nanosecond, Think: time.Second,
		Every: time.Second, MaxPly: 8, Setup: 2}
	var out bytes.Buffer
	if _, err := Run(t.Context(), cfg, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	if len(site.games) != cfg.Games {
		t.Fatalf("%d games created, want %d", len(site.games), cfg.Games)
	}
	for i, g := range site.games {
		if !g.over {
			t.Errorf("game %d is still running after the run", i+1)
		}
	}
}
