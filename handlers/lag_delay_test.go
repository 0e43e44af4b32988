package handlers

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/views"
)

// delayProxy is a TCP proxy in front of a server that holds back
// everything it carries, both ways, by delay: a long line, as between
// continents. Bytes keep their order and are not slowed down otherwise
// (a chunk read at t is written at t+delay).
type delayProxy struct {
	URL    string
	ln     net.Listener
	target string
	delay  time.Duration

	mu    sync.Mutex
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

// newDelayProxy proxies a new address on 127.0.0.1 to target (host:port);
// it is closed when the test ends.
func newDelayProxy(tb testing.TB, target string, delay time.Duration) *delayProxy {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p := &delayProxy{URL: "http://" + ln.Addr().String(), ln: ln, target: target, delay: delay, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.serve()
	tb.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		for c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

func (p *delayProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[up] = struct{}{}, struct{}{}
		p.mu.Unlock()
		p.wg.Add(2)
		go p.relay(up, c)
		go p.relay(c, up)
	}
}

// relay copies src to dst, each chunk delay after it was read, until
// either end closes; then it closes both.
func (p *delayProxy) relay(dst, src net.Conn) {
	defer p.wg.Done()
	type chunk struct {
		b  []byte
		at time.Time
	}
	chunks := make(chan chunk, 4096)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				chunks <- chunk{buf[:n], time.Now().Add(p.delay)}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range chunks {
		time.Sleep(time.Until(c.at))
		if _, err := dst.Write(c.b); err != nil {
			break
		}
	}
	dst.Close()
	src.Close()
	for range chunks { // until the reader has seen the close
	}
}

// delayRun is one scripted game behind the delaying proxy.
type delayRun struct {
	gross []time.Duration // per measured move: from the opponent's move to the player's, on the server
	cost  []time.Duration // what each cost the player's clock
}

// The 300 ms test's script: White's moves (the player behind the proxy)
// and Black's answers (made on the server, at once). Pawn moves only: no
// repetition, no capture, no check.
var (
	delayWhite = []string{"a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3"}
	delayBlack = []string{"a7a6", "b7b6", "c7c6", "d7d6", "e7e6", "f7f6", "g7g6", "h7h6"}
)

// playBehindDelay plays delayWhite as White through a proxy that delays
// each way by oneWay, thinking think before each move after the
// opponent's move reached White's stream; White's page sends the latest
// lag ping back with each move, as board.js does. Black answers on the
// server at once.
func playBehindDelay(t *testing.T, on bool, oneWay, think time.Duration) delayRun {
	e := newLagEnv(t, on, 0)
	proxy := newDelayProxy(t, strings.TrimPrefix(e.srv.URL, "http://"), oneWay)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	defer client.CloseIdleConnections()
	id, white, black := e.blitzGame(t, e.player(t, "ayse"), e.player(t, "bora"))
	path := "/games/" + strconv.FormatInt(id, 10)

	s := e.openStream(t, client, proxy.URL, id, white)
	// The page: it keeps the latest ping and when it came; panels go to
	// the script.
	panels := make(chan string, 64)
	var (
		mu     sync.Mutex
		ping   string
		pingAt time.Time
	)
	go func() {
		defer close(panels)
		for ev := range s.events {
			switch ev.name {
			case views.EventLagPing:
				mu.Lock()
				ping, pingAt = ev.data, time.Now()
				mu.Unlock()
			case views.EventGame:
				panels <- ev.id
			}
		}
	}()
	defer func() {
		s.close(t)
		for range panels { // until the page's reader has stopped
		}
	}()
	// move is White's move with the latest ping, if one came since the
	// last move, and the milliseconds it was held.
	move := func(uci string, ply int) url.Values {
		form := url.Values{"uci": {uci}, "ply": {strconv.Itoa(ply)}}
		mu.Lock()
		defer mu.Unlock()
		if ping != "" {
			form.Set("lag", ping)
			form.Set("held", strconv.FormatInt(time.Since(pingAt).Milliseconds(), 10))
			ping = ""
		}
		return form
	}

	ctx := context.Background()
	for i, uci := range delayWhite {
		ply := 2 * i
		waitPanel(t, panels, strconv.Itoa(ply))
		time.Sleep(think)
		if code := postForm(t, client, proxy.URL, path+"/moves", move(uci, ply), white); code != http.StatusNoContent {
			t.Fatalf("White's move %s = %d", uci, code)
		}
		if i+1 < len(delayWhite) {
			if err := e.games.Move(ctx, id, black.ID, delayBlack[i], chess.English, ply+1); err != nil {
				t.Fatalf("Black's move %s: %v", delayBlack[i], err)
			}
		}
	}
	snap := e.snapshot(t, id)
	var run delayRun
	// White's first move costs nothing (the clocks start after both
	// first moves); from the second on, its clock runs from Black's move.
	for i := 2; i < len(snap.Moves); i += 2 {
		run.gross = append(run.gross, snap.Moves[i].At.Time().Sub(snap.Moves[i-1].At.Time()))
		run.cost = append(run.cost, snap.Moves[i-2].Clock-snap.Moves[i].Clock)
	}
	return run
}

// waitPanel waits for the game panel of ply on the player's stream.
func waitPanel(t *testing.T, panels <-chan string, ply string) {
	t.Helper()
	timeout := time.After(sseTimeout)
	for {
		select {
		case id, ok := <-panels:
			if !ok {
				t.Fatal("the stream ended")
			}
			if id == ply {
				return
			}
		case <-timeout:
			t.Fatalf("no panel of ply %s within the timeout", ply)
		}
	}
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(max(len(ds), 1))
}

// TestLagCompensationBehindDelay measures what a move costs a player's
// clock behind a line that delays each way by 300 ms, with lag
// compensation off and on: the real handlers, streams and SQLite, a
// scripted player who answers each move after 150 ms, and the lag pings
// sent back with the moves. It logs the figures (docs/playing.md, "Lag compensation") and
// checks only bounds that a busy machine cannot break: the delay is
// really there, and compensation saves at least 150 ms a move on average.
func TestLagCompensationBehindDelay(t *testing.T) {
	const oneWay, think = 300 * time.Millisecond, 150 * time.Millisecond
	var off, on delayRun
	t.Run("runs", func(t *testing.T) {
		t.Run("off", func(t *testing.T) {
			t.Parallel()
			off = playBehindDelay(t, false, oneWay, think)
		})
		t.Run("on", func(t *testing.T) {
			t.Parallel()
			on = playBehindDelay(t, true, oneWay, think)
		})
	})
	if t.Failed() {
		return
	}
	t.Logf("%v one-way delay, %v to think: clock cost per move %v without lag compensation, %v with (the server saw %v and %v from the opponent's move to the player's; %d moves each)",
		oneWay, think, mean(off.cost).Round(time.Millisecond), mean(on.cost).Round(time.Millisecond),
		mean(off.gross).Round(time.Millisecond), mean(on.gross).Round(time.Millisecond), len(off.cost))
	t.Logf("per move without: %v; with: %v", off.cost, on.cost)
	// The moves' times are the wall clock's (game.Instant), the clocks'
	// the monotonic clock's (wallSlack).
	for i, c := range off.cost {
		if !within(c, off.gross[i], wallSlack(off.gross[i])) {
			t.Errorf("without compensation move %d cost %v, but took %v", i+1, c, off.gross[i])
		}
	}
	if least := 2*oneWay + think; mean(off.cost) < least {
		t.Errorf("without compensation a move cost %v on average, less than the round trip and the thought (%v): is the delay there?", mean(off.cost), least)
	}
	for i, c := range on.cost {
		if slack := wallSlack(on.gross[i]); c < on.gross[i]-500*time.Millisecond-slack || c > on.gross[i]+slack {
			t.Errorf("with compensation move %d cost %v of the %v it took: more than 500 ms back, or time taken", i+1, c, on.gross[i])
		}
	}
	if saved := mean(off.cost) - mean(on.cost); saved < 150*time.Millisecond {
		t.Errorf("lag compensation saved %v a move on average, want at least 150 ms", saved)
	}
}
