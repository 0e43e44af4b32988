package handlers

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/play"
	"satranc/store"
	"satranc/views"
)

// onceSpectators is how many spectators watch the game of
// TestGameEventsExactlyOnce, as in the probe that found the mating move
// sent twice.
const onceSpectators = 200

// tally is what one stream received: the ids of its panels in order, the
// bytes of each event by name, and the heartbeats since the latest panel.
type tally struct {
	mu         sync.Mutex
	ids        []string
	moveBytes  []int // of each move sent as a delta (views.EventMove), in order
	bytes      map[string]int
	events     map[string]int
	beatsAfter int
}

func (t *tally) panels() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.ids...)
}

func (t *tally) beats() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.beatsAfter
}

// streamRig is a real server on a SQLite file in t.TempDir() with a
// private game of 15+10 between two members, White and Black, started.
type streamRig struct {
	srv          *httptest.Server
	games        *play.Service
	id           int64
	white, black player
}

// newStreamRig starts a streamRig whose handlers' Config tune changes.
func newStreamRig(t *testing.T, tune func(*Config)) *streamRig {
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
	cfg := Config{
		Logger: discard, DB: st, Accounts: accounts, AuthLimit: looseLimit, MoveLimit: looseLimit, CreateLimit: looseLimit,
		Games: games, Chat: games, Voice: games, Users: st,
	}
	tune(&cfg)
	h := New(cfg)
	srv := serveRoutes(h, nil)
	t.Cleanup(srv.Close)
	e := &stackEnv{accountEnv: &accountEnv{h: h.Routes(), store: st}, accounts: accounts, games: games}
	ctx := context.Background()
	a, b := e.player(t, "ayse"), e.player(t, "bora")
	id, token, err := games.CreatePrivateGame(ctx, a.ID, clock.Control{Initial: 15 * time.Minute, Increment: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := games.JoinPrivateGame(ctx, b.ID, token); err != nil {
		t.Fatal(err)
	}
	rig := &streamRig{srv: srv, games: games, id: id, white: a, black: b}
	snap := e.snapshot(t, id)
	if side, _ := snap.SideOf(a.ID); side != chess.White {
		rig.white, rig.black = b, a
	}
	return rig
}

// countStream reads body's events into t until it ends.
func countStream(body interface{ Read([]byte) (int, error) }, t *tally) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var id, name string
	size := 0
	for sc.Scan() {
		line := sc.Text()
		size += len(line) + 1
		switch {
		case line == "":
			t.mu.Lock()
			if name == "" {
				name = "comment"
			}
			t.bytes[name] += size
			t.events[name]++
			if name == views.EventMove {
				t.moveBytes = append(t.moveBytes, size)
			}
			if name == views.EventGame || name == views.EventMove {
				t.ids = append(t.ids, id)
				t.beatsAfter = 0
			} else if name == "comment" {
				t.beatsAfter++
			}
			t.mu.Unlock()
			id, name, size = "", "", 0
		case strings.HasPrefix(line, "id: "):
			id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		}
	}
}

// TestGameEventsExactlyOnce: two players and onceSpectators spectators
// (their streams taken out of net/http) follow a game played to mate,
// with a draw offered and declined on the way. Every stream gets every
// ply's panel exactly once and in order, the mating move's included (its
// move and the game's end are two events of one burst); a spectator gets
// nothing for the draw offer and its decline, which it does not see. It
// logs the events and bytes one spectator received for the whole game.
func TestGameEventsExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("opens some 200 streams")
	}
	// A heartbeat soon after every quiet spell: two of them after the
	// final panel show that nothing else came of the game's end.
	rig := newStreamRig(t, func(c *Config) {
		c.Heartbeat, c.ClockSync = 100*time.Millisecond, 100*time.Millisecond
		c.StreamLimits = StreamLimits{PerAddress: -1} // 200 spectators from one address
	})
	srv, games, id, white, black := rig.srv, rig.games, rig.id, rig.white, rig.black
	ctx := context.Background()

	type viewer struct {
		*tally
		spectator bool
	}
	var viewers []viewer
	var readers sync.WaitGroup
	var bodies []io.Closer
	defer func() {
		for _, b := range bodies {
			b.Close()
		}
		readers.Wait()
	}()
	open := func(p *player) {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/games/"+strconv.FormatInt(id, 10)+"/events?"+views.DeltaQuery, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p != nil {
			req.AddCookie(p.cookie)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET events = %d", resp.StatusCode)
		}
		bodies = append(bodies, resp.Body)
		v := viewer{tally: &tally{bytes: map[string]int{}, events: map[string]int{}}, spectator: p == nil}
		viewers = append(viewers, v)
		readers.Add(1)
		go func() { defer readers.Done(); countStream(resp.Body, v.tally) }()
	}
	open(&white)
	open(&black)
	for range onceSpectators {
		open(nil)
	}
	// wait waits until every stream (spectators too, or players only) has
	// received a panel with id ply, and at least n panels.
	wait := func(ply, n int, spectators bool) {
		t.Helper()
		deadline := time.Now().Add(sseTimeout)
		for _, v := range viewers {
			if v.spectator && !spectators {
				continue
			}
			for got := v.panels(); len(got) < n || !slices.Contains(got, strconv.Itoa(ply)); got = v.panels() {
				if time.Now().After(deadline) {
					t.Fatalf("a stream has panels %v, want %d up to ply %d", got, n, ply)
				}
				time.Sleep(2 * time.Millisecond)
			}
		}
	}
	wait(0, 1, true) // the snapshot

	// Scholar's mate, with a draw offered and declined after the third
	// move: the players' panels change, the spectators' do not.
	moves := []string{"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"}
	playerPanels := 1
	for ply, mv := range moves {
		mover, other := white, black
		if ply%2 == 1 {
			mover, other = black, white
		}
		if err := games.Move(ctx, id, mover.ID, mv, chess.English, ply); err != nil {
			t.Fatalf("move %d %s: %v", ply+1, mv, err)
		}
		playerPanels++
		if ply == len(moves)-2 {
			// The mating move follows at once: the streams are busy
			// with this one when it and the game's end come.
			playerPanels--
			continue
		}
		wait(ply+1, 0, true)
		if ply == 2 {
			if err := games.OfferDraw(ctx, id, other.ID); err != nil {
				t.Fatal(err)
			}
			playerPanels++
			wait(ply+1, playerPanels, false)
			if err := games.AnswerDraw(ctx, id, mover.ID, false); err != nil {
				t.Fatal(err)
			}
			playerPanels++
			wait(ply+1, playerPanels, false)
		}
	}
	// Whatever the game's end sends comes before the second heartbeat
	// after the final panel.
	deadline := time.Now().Add(sseTimeout)
	for _, v := range viewers {
		for v.beats() < 2 {
			if time.Now().After(deadline) {
				t.Fatal("no heartbeat after the game's end")
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	for _, b := range bodies {
		b.Close()
	}
	readers.Wait()

	// A spectator sees one panel per ply, 0 to the mate; a player the
	// same, and at the ply of the draw offer two more (the offer, the
	// decline).
	twice, mateTwice := map[bool]int{}, 0
	for i, v := range viewers {
		if n := len(slices.DeleteFunc(v.panels(), func(id string) bool { return id != strconv.Itoa(len(moves)) })); n > 1 {
			mateTwice++
		}
		want := make([]string, 0, len(moves)+3)
		for ply := range len(moves) + 1 {
			want = append(want, strconv.Itoa(ply))
			if ply == 3 && !v.spectator {
				want = append(want, "3", "3")
			}
		}
		got := v.panels()
		if !slices.Contains(got, strconv.Itoa(len(moves)-1)) {
			// The last two moves came together: one panel may show both.
			want = slices.DeleteFunc(want, func(id string) bool { return id == strconv.Itoa(len(moves)-1) })
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			twice[v.spectator]++
			if twice[v.spectator] <= 3 {
				t.Errorf("stream %d (spectator %v): panel ids %v, want %v", i, v.spectator, got, want)
			}
		}
	}
	if twice[true]+twice[false] > 0 {
		t.Errorf("%d of %d spectators' and %d of 2 players' streams did not get each panel exactly once; %d got the mate twice",
			twice[true], onceSpectators, twice[false], mateTwice)
	}
	s := viewers[2]
	t.Logf("one spectator, whole game (%d plies): %d whole panels (%d bytes), %d moves as deltas (%d bytes), %d events, %d bytes in all (heartbeats included)",
		len(moves), s.events[views.EventGame], s.bytes[views.EventGame], s.events[views.EventMove], s.bytes[views.EventMove], sum(s.events), sum(s.bytes))
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
