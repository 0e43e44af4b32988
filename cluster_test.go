package main

import (
	"bufio"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"satranc/store/pgtest"
)

// foolsMate is the shortest game to checkmate: Black mates at ply 4.
var foolsMate = []string{"f2f3", "e7e5", "g2g4", "d8h4"}

// TestTwoNodesPlayAGame is issue 9's figure for several nodes
// (docs/scaling.md): two `satranc serve` processes on one PostgreSQL
// database, each a cluster node (--node-addr). Ayşe signs up and creates a
// private game on node A; Bora signs up on node B and joins it there by the
// invite link. Each keeps the game's event stream open on their own node
// and posts their moves there; every move reaches the other player's
// stream on the other node, and the game ends in checkmate, the same seen
// from both nodes. One node owned the game all along (its lease), and the
// database holds the four moves once each.
func TestTwoNodesPlayAGame(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	pg := pgtest.New(t) // skips when PostgreSQL is not installed
	db := pg.NewDatabase(t)
	dir := t.TempDir()
	bin := buildSatranc(t, dir)
	addrA, addrB := freeAddr(t), freeAddr(t)
	nodeA := startServer(t, bin, addrA, db, "--node-addr", "http://"+addrA)
	nodeB := startServer(t, bin, addrB, db, "--node-addr", "http://"+addrB)

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

	players := [2]*user{white, black}
	for i, uci := range foolsMate {
		mover, other := players[i%2], players[(i+1)%2]
		mover.move(t, gamePath, uci, i)
		waitPly(t, other, plies[other], i+1)
	}

	for _, u := range []*user{a, b} {
		resp, pgn := u.getBody(t, gamePath+"/pgn")
		if resp.StatusCode != http.StatusOK || !strings.Contains(pgn, `[Result "0-1"]`) || !strings.Contains(pgn, "Qh4#") {
			t.Errorf("PGN of the game on %s's node (%s): %d\n%s", u.name, u.base, resp.StatusCode, pgn)
		}
	}

	conn, err := pgx.Connect(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var status, result, termination string
	var moves int
	if err := conn.QueryRow(context.Background(), `SELECT status, result, termination,
		(SELECT COUNT(*) FROM moves WHERE game_id = games.id) FROM games WHERE id = $1`, gameID).
		Scan(&status, &result, &termination, &moves); err != nil {
		t.Fatal(err)
	}
	if status != "finished" || result != "0-1" || termination != "checkmate" || moves != len(foolsMate) {
		t.Errorf("stored game: %s %s %s with %d moves; want finished 0-1 checkmate with %d", status, result, termination, moves, len(foolsMate))
	}
	var addr string
	var epoch int64
	if err := conn.QueryRow(context.Background(), "SELECT addr, epoch FROM game_leases WHERE game_id = $1", gameID).
		Scan(&addr, &epoch); err != nil {
		t.Fatal(err)
	}
	if addr != nodeA.base || epoch != 1 {
		t.Errorf("game's lease: %s at epoch %d; want node A (%s), where it was created, at epoch 1", addr, epoch, nodeA.base)
	}
	_ = nodeB
}

// streamPlies opens u's event stream of the game and sends the id (the
// ply) of each game event on the returned channel until ctx ends.
func streamPlies(t *testing.T, ctx context.Context, u *user, gamePath string) chan int {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.url(gamePath+"/events"), nil)
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
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		id := -1
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				id, _ = strconv.Atoi(strings.TrimPrefix(line, "id: "))
			case line == "event: game" && id >= 0:
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

// waitPly waits until u's stream has shown ply.
func waitPly(t *testing.T, u *user, c chan int, ply int) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case got := <-c:
			if got >= ply {
				return
			}
		case <-deadline:
			t.Fatalf("%s's stream on %s did not show ply %d within 20 s", u.name, u.base, ply)
		}
	}
}
