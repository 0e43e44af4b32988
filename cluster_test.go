package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"satranc/store/pgtest"
)

// foolsMate is the shortest game to checkmate: Black mates at ply 4.
var foolsMate = []string{"f2f3", "e7e5", "g2g4", "d8h4"}

// TestTwoNodes runs two `satranc serve` processes on one PostgreSQL
// database, each a cluster node (--node-addr), as docs/scaling.md
// describes: a game whose players are on different nodes (issue 9's
// figure), and the take-over of a game whose node dies.
func TestTwoNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	pg := pgtest.New(t) // skips when PostgreSQL is not installed
	bin := buildSatranc(t, t.TempDir())
	nodes := func(t *testing.T, flags ...string) (db string, a, b *server) {
		db = pg.NewDatabase(t)
		addrA, addrB := freeAddr(t), freeAddr(t)
		a = startServer(t, bin, addrA, db, append([]string{"--node-addr", "http://" + addrA}, flags...)...)
		b = startServer(t, bin, addrB, db, append([]string{"--node-addr", "http://" + addrB}, flags...)...)
		return db, a, b
	}
	t.Run("players on different nodes", func(t *testing.T) { testTwoNodesPlay(t, nodes) })
	t.Run("owner killed", func(t *testing.T) { testTwoNodesTakeOver(t, nodes, false) })
	t.Run("owner killed, stream from the bus", func(t *testing.T) { testTwoNodesTakeOver(t, nodes, true) })
	t.Run("owner paused", func(t *testing.T) { testTwoNodesPaused(t, nodes) })
	t.Run("quick play across nodes", func(t *testing.T) { testTwoNodesQuickPlay(t, nodes) })
	t.Run("events over the bus", func(t *testing.T) { testTwoNodesBus(t, nodes) })
}

// nodesFunc starts two nodes on a fresh database, with more flags.
type nodesFunc func(t *testing.T, flags ...string) (db string, a, b *server)

// testTwoNodesBus: with a NATS server (--nats), the game's events cross
// on the bus. Ayşe plays on node A, which owns the game; Bora plays on
// node B, and Cem watches there: their streams are served by node B from
// the events node A publishes on the bus (node B's metrics count them,
// and node A serves only Ayşe's), and show every move. The game's end
// reaches the live tournament standings open on node B, which follow
// every game's end (play.Endings). Then the bus goes away (the design's
// failure case 5): node B's streams from the bus end, and a stream opened
// meanwhile is forwarded to node A. The bus comes back, both nodes
// reconnect, and the next game's end reaches node B again.
func testTwoNodesBus(t *testing.T, nodes nodesFunc) {
	bus := startNATS(t)
	_, nodeA, nodeB := nodes(t, "--nats", bus.url())
	a, b := newUser(t, nodeA.base, "ayse"), newUser(t, nodeB.base, "bora")
	c := newUser(t, nodeB.base, "cem")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	standings := streamEvents(t, ctx, b, "/tournaments/daily/events", "standings")
	waitStandings := func(what string) {
		t.Helper()
		select {
		case _, ok := <-standings:
			if !ok {
				t.Fatalf("node B's standings stream ended, waiting for a panel %s", what)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("node B's standings stream: no panel %s within 20 s", what)
		}
	}
	waitStandings("at first")

	gamePath, _, white, black := privateGame(t, a, b)
	streams := map[*user]chan int{}
	boraCtx, boraLeaves := context.WithCancel(ctx)
	defer boraLeaves()
	for _, u := range []*user{a, b, c} {
		streamCtx := ctx
		if u == b {
			streamCtx = boraCtx
		}
		streams[u] = streamPlies(t, streamCtx, u, gamePath)
		waitPly(t, u, streams[u], 0)
	}
	metric(t, nodeB, "satranc_sse_bus_streams_total", 2)
	metric(t, nodeB, "satranc_sse_streams", 3) // with the standings' stream
	metric(t, nodeA, "satranc_sse_streams", 1) // forwarded, they would be 3
	players := [2]*user{white, black}
	for i, uci := range foolsMate {
		if i == 2 {
			// Bora's stream on node B tells node A when it closes and
			// opens: Ayşe's page shows his countdown, then no more.
			boraLeaves()
			waitEnded(t, b, streams[b])
			waitOpponentAway(t, a, gamePath, true, 10*time.Second)
			streams[b] = streamPlies(t, ctx, b, gamePath)
			waitPly(t, b, streams[b], 2)
			waitOpponentAway(t, a, gamePath, false, 10*time.Second)
			metric(t, nodeB, "satranc_sse_bus_streams_total", 3)
		}
		start := time.Now()
		players[i%2].move(t, gamePath, uci, i)
		waitPly(t, c, streams[c], i+1)
		t.Logf("ply %d posted on %s: on Cem's stream on node B, from the bus, %v after the post",
			i+1, players[i%2].base, time.Since(start).Round(100*time.Microsecond))
		for _, u := range []*user{a, b} {
			waitPly(t, u, streams[u], i+1)
		}
	}
	waitStandings("after a game ended on node A")

	bus.stop()
	for _, u := range []*user{b, c} {
		waitEnded(t, u, streams[u])
	}
	waitPly(t, c, streamPlies(t, ctx, c, gamePath), len(foolsMate))
	metric(t, nodeA, "satranc_sse_streams", 2) // Ayşe's, and Cem's forwarded
	metric(t, nodeB, "satranc_sse_bus_streams_total", 3)

	bus.start(t)
	for _, n := range []*server{nodeA, nodeB} {
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(n.logs.String(), "bus: reconnected"); {
			if time.Now().After(deadline) {
				t.Fatalf("node %s did not reconnect to the bus within 30 s", n.base)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	gamePath, _, white, black = privateGame(t, a, b)
	players = [2]*user{white, black}
	for i, uci := range foolsMate {
		players[i%2].move(t, gamePath, uci, i)
	}
	waitStandings("after a game ended on node A, once the bus came back")

	// Node B dies with Bora's stream from the bus open: node A, the
	// owner, hears no more of it and lets it lapse (at most 20 s), and
	// Ayşe's page shows Bora's disconnection countdown.
	gamePath, _, _, _ = privateGame(t, a, b)
	waitPly(t, b, streamPlies(t, ctx, b, gamePath), 0)
	metric(t, nodeB, "satranc_sse_bus_streams_total", 4)
	waitOpponentAway(t, a, gamePath, false, 10*time.Second)
	nodeB.kill(t)
	waitOpponentAway(t, a, gamePath, true, 40*time.Second)
}

// waitOpponentAway waits at most within until u's page of the game
// shows the opponent's disconnection countdown (away) or not.
func waitOpponentAway(t *testing.T, u *user, gamePath string, away bool, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); ; time.Sleep(100 * time.Millisecond) {
		_, page := u.get(t, gamePath)
		if page.Find(`[data-testid="opponent-countdown"]`).Length() > 0 == away {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s's page on %s: opponent away is not %v after %v", u.name, u.base, away, within)
		}
	}
}

// metric waits until the metric name of node n reads want (at most 10 s:
// a stream is counted once its handler runs).
func metric(t *testing.T, n *server, name string, want float64) {
	t.Helper()
	var got string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(n.base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(body)) {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+" "); ok {
				got = v
			}
		}
		if v, err := strconv.ParseFloat(got, 64); err == nil && v == want {
			return
		}
	}
	t.Fatalf("node %s: %s = %q, want %v", n.base, name, got, want)
}

// testTwoNodesQuickPlay: Ayşe asks for Quick Play at 3+2 on node A, and
// Bora on node B. The lobby's queues run on one node, which holds the
// lobby's role in the database (node A here, which had the first lobby
// request), and the other forwards them there: the two are paired with
// each other (alone on their nodes, each would get a computer player after
// 6 s) and play the game to its end, each on their own node.
func testTwoNodesQuickPlay(t *testing.T, nodes nodesFunc) {
	db, nodeA, nodeB := nodes(t)
	a, b := newUser(t, nodeA.base, "ayse"), newUser(t, nodeB.base, "bora")
	for _, u := range []*user{a, b} {
		resp, _ := u.post(t, "/lobby/join", url.Values{"control": {"3+2"}})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s joins Quick Play on %s: %d at %s", u.name, u.base, resp.StatusCode, resp.Request.URL)
		}
	}
	gamePath := waitPaired(t, a)
	if got := waitPaired(t, b); got != gamePath {
		t.Fatalf("Ayşe went to %s, Bora to %s: not paired together", gamePath, got)
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(gamePath, "/games/"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	var kind, bots string
	var humans int
	if err := pgConnect(t, db).QueryRow(context.Background(), `SELECT kind, white_bot || black_bot,
		(white_id IS NOT NULL)::int + (black_id IS NOT NULL)::int FROM games WHERE id = $1`, id).
		Scan(&kind, &bots, &humans); err != nil {
		t.Fatal(err)
	}
	if kind != "quick" || bots != "" || humans != 2 {
		t.Fatalf("the game: %s, bots %q, %d people; want a quick game of two people", kind, bots, humans)
	}
	var holder string
	if err := pgConnect(t, db).QueryRow(context.Background(), "SELECT addr FROM cluster_roles WHERE name = 'lobby'").Scan(&holder); err != nil || holder != nodeA.base {
		t.Errorf("the lobby's role: %q, %v; want node A, %s", holder, err, nodeA.base)
	}

	white, black := sides(t, a, b, gamePath)
	players := [2]*user{white, black}
	for i, uci := range foolsMate {
		players[i%2].move(t, gamePath, uci, i)
	}
	checkMated(t, db, id)
}

// waitPaired waits until u's waiting page sends them to a game, and
// returns the game's path.
func waitPaired(t *testing.T, u *user) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		resp, _ := u.get(t, "/lobby/wait")
		if path := strings.TrimSuffix(resp.Request.URL.Path, "/"); strings.HasPrefix(path, "/games/") {
			return path
		}
		if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != "/lobby/wait" || time.Now().After(deadline) {
			t.Fatalf("%s's waiting page on %s: %d at %s; want a game within 20 s", u.name, u.base, resp.StatusCode, resp.Request.URL)
		}
	}
}

// natsServer is a nats-server process on a loopback port.
type natsServer struct {
	bin, addr string
	cmd       *exec.Cmd
	logs      *syncBuffer
}

// startNATS starts nats-server on a free loopback port for the test; it
// skips the test when nats-server is not installed. The program is
// $SATRANC_NATS_SERVER, or nats-server on PATH.
func startNATS(t *testing.T) *natsServer {
	t.Helper()
	bin := os.Getenv("SATRANC_NATS_SERVER")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("nats-server"); err != nil {
			pgtest.Skip(t, "nats-server is not on PATH (the Debian package nats-server; or set SATRANC_NATS_SERVER)")
		}
	}
	n := &natsServer{bin: bin, addr: freeAddr(t), logs: &syncBuffer{}}
	t.Cleanup(func() {
		n.stop()
		if t.Failed() {
			t.Logf("nats-server output:\n%s", n.logs.String())
		}
	})
	n.start(t)
	return n
}

func (n *natsServer) url() string { return "nats://" + n.addr }

// start starts the server on its address and waits until it listens.
func (n *natsServer) start(t *testing.T) {
	t.Helper()
	host, port, _ := net.SplitHostPort(n.addr)
	n.cmd = exec.Command(n.bin, "-a", host, "-p", port)
	n.cmd.Stdout, n.cmd.Stderr = n.logs, n.logs
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); ; {
		c, err := net.DialTimeout("tcp", n.addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nats-server did not listen on %s within 15 s: %v", n.addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop kills the server, if it runs.
func (n *natsServer) stop() {
	if n.cmd != nil {
		_ = n.cmd.Process.Kill()
		_ = n.cmd.Wait()
		n.cmd = nil
	}
}

// testTwoNodesPlay: Ayşe signs up and creates a private game on node A;
// Bora signs up on node B and joins it there by the invite link. Each
// keeps the game's event stream open on their own node and posts their
// moves there; every move reaches the other player's stream on the other
// node, and the game ends in checkmate, the same seen from both nodes. One
// node owned the game all along (its lease), and the database holds the
// four moves once each, the first of which was posted to both nodes.
func testTwoNodesPlay(t *testing.T, nodes nodesFunc) {
	db, nodeA, nodeB := nodes(t)
	a, b := newUser(t, nodeA.base, "ayse"), newUser(t, nodeB.base, "bora")
	gamePath, gameID, white, black := privateGame(t, a, b)

	// Each player's stream, on their own node, reports the ply of every
	// game event it receives.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	plies := map[*user]chan int{white: streamPlies(t, ctx, white, gamePath), black: streamPlies(t, ctx, black, gamePath)}
	for u, c := range plies {
		waitPly(t, u, c, 0) // the snapshot every stream starts with
	}

	// The first move is posted to both nodes at once, as a request retried
	// through another node would be (the design's failure case 4): it is
	// applied once, and the other post is refused as stale (409).
	codes := make(chan int, 2)
	for _, base := range []string{nodeA.base, nodeB.base} {
		via := &user{name: white.name, base: base, client: white.client}
		go func() {
			code, _, err := postMove(via, gamePath, foolsMate[0], 0)
			if err != nil {
				code = -1
			}
			codes <- code
		}()
	}
	got := []int{<-codes, <-codes}
	slices.Sort(got)
	if got[0] != http.StatusNoContent || got[1] != http.StatusConflict {
		t.Fatalf("the same move posted to both nodes at once: %v, want one 204 and one 409", got)
	}
	waitPly(t, black, plies[black], 1)

	players := [2]*user{white, black}
	for i := 1; i < len(foolsMate); i++ {
		mover, other := players[i%2], players[(i+1)%2]
		start := time.Now()
		mover.move(t, gamePath, foolsMate[i], i)
		waitPly(t, other, plies[other], i+1)
		t.Logf("ply %d posted on %s: on the stream on %s %v after the post",
			i+1, mover.base, other.base, time.Since(start).Round(100*time.Microsecond))
	}

	for _, u := range []*user{a, b} {
		resp, pgn := u.getBody(t, gamePath+"/pgn")
		if resp.StatusCode != http.StatusOK || !strings.Contains(pgn, `[Result "0-1"]`) || !strings.Contains(pgn, "Qh4#") {
			t.Errorf("PGN of the game on %s's node (%s): %d\n%s", u.name, u.base, resp.StatusCode, pgn)
		}
	}

	checkMated(t, db, gameID)
	checkLease(t, db, gameID, nodeA.base, 1)
}

// testTwoNodesTakeOver: a game runs on node A, its players on both nodes;
// after two moves node A is killed (SIGKILL). Ayşe's browser reaches node
// B instead, as a load balancer would send it; her next move succeeds once
// A's lease has lapsed (at most its 10 s), node B having taken the game
// over from the database, and the game is played to the end there, with
// both earlier moves kept.
//
// With the bus (withBus), Bora's stream on node B, served from node A's
// events on the bus, lives through the take-over: node B, the new owner,
// publishes on the same subject, and the stream shows the last two moves.
func testTwoNodesTakeOver(t *testing.T, nodes nodesFunc, withBus bool) {
	var flags []string
	if withBus {
		flags = []string{"--nats", startNATS(t).url()}
	}
	db, nodeA, nodeB := nodes(t, flags...)
	a, b := newUser(t, nodeA.base, "ayse"), newUser(t, nodeB.base, "bora")
	gamePath, gameID, white, black := privateGame(t, a, b)
	var boraStream chan int
	if withBus {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		boraStream = streamPlies(t, ctx, b, gamePath)
		waitPly(t, b, boraStream, 0)
		metric(t, nodeB, "satranc_sse_bus_streams_total", 1)
	}
	players := [2]*user{white, black}
	for i, uci := range foolsMate[:2] {
		players[i%2].move(t, gamePath, uci, i)
	}

	nodeA.kill(t)
	start := time.Now()
	a.base = nodeB.base // the session is in the database: the cookie holds on B
	moveOnceTakenOver(t, white, gamePath, 2)
	t.Logf("node B took the game over %v after node A died", time.Since(start).Round(100*time.Millisecond))
	black.move(t, gamePath, foolsMate[3], 3)
	if withBus {
		waitPly(t, b, boraStream, 4)
	}
	checkMated(t, db, gameID)
	checkLease(t, db, gameID, nodeB.base, 2)
}

// testTwoNodesPaused (the design's failure case 3): node A, which owns
// the game, is paused (SIGSTOP) past its lease. White's move on node B is
// refused with 503 while B waits for A, then node B takes the game over.
// Node A comes back (SIGCONT), and Black's move sent to node A is
// forwarded to node B, the owner now: the game ends once, on node B.
func testTwoNodesPaused(t *testing.T, nodes nodesFunc) {
	db, nodeA, nodeB := nodes(t)
	a, b := newUser(t, nodeA.base, "ayse"), newUser(t, nodeB.base, "bora")
	gamePath, gameID, white, black := privateGame(t, a, b)
	players := [2]*user{white, black}
	for i, uci := range foolsMate[:2] {
		players[i%2].move(t, gamePath, uci, i)
	}

	if err := nodeA.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitStopped(t, nodeA.cmd.Process.Pid)
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			if err := nodeA.cmd.Process.Signal(syscall.SIGCONT); err != nil {
				t.Error(err)
			}
		}
	}
	defer resume()
	white.base = nodeB.base
	moveOnceTakenOver(t, white, gamePath, 2)
	resume()

	black.base = nodeA.base
	black.move(t, gamePath, foolsMate[3], 3)
	checkMated(t, db, gameID)
	checkLease(t, db, gameID, nodeB.base, 2)
}

// waitStopped waits until process pid is stopped: kill returns before a
// SIGSTOP takes effect, and a node that still answers a request or two
// afterwards keeps the game (the test failed so once in CI).
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			t.Logf("cannot see whether the node stopped: %v", err)
			return
		}
		// The state is the field after the command name, which ends at the last ')'.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && (stat[i+2] == 'T' || stat[i+2] == 't') {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("node (pid %d) not stopped 10 s after SIGSTOP: %s", pid, stat)
		}
	}
}

// moveOnceTakenOver plays Fool's Mate's move at ply for u while the game's
// owner is gone: the answer is 503 until another node has taken the game
// over (at most the lease's 10 s and the forwarding's 5 s wait), then 204.
func moveOnceTakenOver(t *testing.T, u *user, gamePath string, ply int) {
	t.Helper()
	start := time.Now()
	for {
		code, _, err := postMove(u, gamePath, foolsMate[ply], ply)
		if err != nil {
			t.Fatal(err)
		}
		if code == http.StatusNoContent {
			return
		}
		if code != http.StatusServiceUnavailable || time.Since(start) > 40*time.Second {
			t.Fatalf("%s's move on %s with the owner gone = %d after %v; want 503 until the take-over, then 204", u.name, u.base, code, time.Since(start))
		}
		time.Sleep(250 * time.Millisecond) // a page's retry
	}
}

// checkMated checks that game id is stored as Fool's Mate: finished, 0-1
// by checkmate, with its 4 moves once each.
func checkMated(t *testing.T, db string, id int64) {
	t.Helper()
	conn := pgConnect(t, db)
	var status, result, termination string
	var moves int
	if err := conn.QueryRow(context.Background(), `SELECT status, result, termination,
		(SELECT COUNT(*) FROM moves WHERE game_id = games.id) FROM games WHERE id = $1`, id).
		Scan(&status, &result, &termination, &moves); err != nil {
		t.Fatal(err)
	}
	if status != "finished" || result != "0-1" || termination != "checkmate" || moves != len(foolsMate) {
		t.Errorf("stored game: %s %s %s with %d moves; want finished 0-1 checkmate with %d", status, result, termination, moves, len(foolsMate))
	}
}

// checkLease checks that the node at addr holds game id's lease at epoch.
func checkLease(t *testing.T, db string, id int64, addr string, epoch int64) {
	t.Helper()
	conn := pgConnect(t, db)
	var gotAddr string
	var gotEpoch int64
	if err := conn.QueryRow(context.Background(), "SELECT addr, epoch FROM game_leases WHERE game_id = $1", id).
		Scan(&gotAddr, &gotEpoch); err != nil {
		t.Fatal(err)
	}
	if gotAddr != addr || gotEpoch != epoch {
		t.Errorf("game's lease: %s at epoch %d; want %s at epoch %d", gotAddr, gotEpoch, addr, epoch)
	}
}

// pgConnect connects to the database at the URL db for the test.
func pgConnect(t *testing.T, db string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// streamEvents opens u's event stream at path and sends the id of each
// event called name on the returned channel (-1 without an id) until ctx
// ends; the channel is closed when the stream ends.
func streamEvents(t *testing.T, ctx context.Context, u *user, path, name string) chan int {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.url(path), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Jar: u.client.Jar}).Do(req)
	if err != nil {
		t.Fatalf("open %s's stream: %v", u.name, err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body.Close()
		t.Fatalf("%s's stream: %d %s", u.name, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	c := make(chan int, 64)
	go func() {
		defer close(c) // the stream ended
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		id := -1
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				id, _ = strconv.Atoi(strings.TrimPrefix(line, "id: "))
			case line == "event: "+name:
				select {
				case c <- id:
				case <-ctx.Done():
					return
				}
			case line == "":
				id = -1
			}
		}
	}()
	return c
}

// streamPlies opens u's event stream of the game and sends the id (the
// ply) of each game event on the returned channel until ctx ends.
func streamPlies(t *testing.T, ctx context.Context, u *user, gamePath string) chan int {
	t.Helper()
	return streamEvents(t, ctx, u, gamePath+"/events", "game")
}

// waitPly waits until u's stream has shown ply.
func waitPly(t *testing.T, u *user, c chan int, ply int) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case got, ok := <-c:
			if !ok {
				t.Fatalf("%s's stream on %s ended before ply %d", u.name, u.base, ply)
			}
			if got >= ply {
				return
			}
		case <-deadline:
			t.Fatalf("%s's stream on %s did not show ply %d within 20 s", u.name, u.base, ply)
		}
	}
}

// waitEnded waits until u's stream has ended.
func waitEnded(t *testing.T, u *user, c chan int) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case _, ok := <-c:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatalf("%s's stream on %s did not end within 20 s", u.name, u.base)
		}
	}
}

func TestServeClusterFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--nats", "nats://127.0.0.1:4222"}, "--nats needs --node-addr"},
		{[]string{"serve", "--node-addr", "10.0.0.2:8080"}, "--node-addr"},
		{[]string{"serve", "--node-addr", "http://10.0.0.2:8080/satranc"}, "--node-addr"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), tc.args, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("run(%q) = %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
