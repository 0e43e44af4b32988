package main

import (
	"bufio"
	"context"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestGracefulShutdownDuringPlay stops the server with SIGTERM while two
// players make moves with their event streams open, and a spectator
// watches (a stream the server serves outside net/http): the server stops
// accepting connections, ends the streams, and exits cleanly; every move
// it acknowledged is in the database (a move caught in flight is either
// acknowledged and stored, or refused and not), which passes PRAGMA
// integrity_check; started again, the server resumes the game, which is
// still running (the restart policy of DESIGN.md "Restart safety") and
// takes the next move.
func TestGracefulShutdownDuringPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildSatranc(t, dir)
	dbPath := filepath.Join(dir, "shutdown.db")
	addr := freeAddr(t)
	srv := startServer(t, bin, addr, dbPath)
	a, b := newUser(t, srv.base, "ayse"), newUser(t, srv.base, "bora")
	gamePath, gameID, white, black := privateGame(t, a, b)
	players := [2]*user{white, black}
	spectator := newUser(t, srv.base, "cemil")

	// The players' and the spectator's pages hold their streams open until
	// the server ends them.
	var streams sync.WaitGroup
	streamCtx, cancelStreams := context.WithCancel(context.Background())
	defer cancelStreams()
	opened := make(chan struct{}, 3)
	for _, u := range []*user{white, black, spectator} {
		req, err := http.NewRequestWithContext(streamCtx, http.MethodGet, u.url(gamePath+"/events"), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := (&http.Client{Jar: u.client.Jar}).Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("open %s's stream: %v", u.name, err)
		}
		if detached := resp.Close && len(resp.TransferEncoding) == 0; detached != (u == spectator) {
			t.Errorf("%s's stream: outside net/http %v", u.name, detached)
		}
		streams.Go(func() {
			defer resp.Body.Close()
			br := bufio.NewReader(resp.Body)
			first := true
			for {
				if _, err := br.ReadString('\n'); err != nil {
					return
				}
				if first {
					opened <- struct{}{}
					first = false
				}
			}
		})
	}
	for range 3 {
		<-opened
	}

	// The players move one after the other until the server goes away.
	var acked []string
	var mu sync.Mutex
	halfway := make(chan struct{})
	moving := make(chan struct{})
	go func() {
		defer close(moving)
		for ply, uci := range restartMoves {
			if err := tryMove(players[ply%2], gamePath, uci, ply); err != nil {
				return
			}
			mu.Lock()
			acked = append(acked, uci)
			mu.Unlock()
			if ply == 5 {
				close(halfway)
			}
		}
	}()
	select {
	case <-halfway:
	case <-moving:
		t.Fatal("the moves stopped before the shutdown")
	}

	srv.stop(t) // SIGTERM; wants a clean exit within 20 s
	streamsEnded := make(chan struct{})
	go func() { streams.Wait(); close(streamsEnded) }()
	select {
	case <-streamsEnded:
	case <-time.After(5 * time.Second):
		t.Fatal("the event streams were still open after the server exited")
	}
	<-moving
	if _, err := (&http.Client{Timeout: 2 * time.Second}).Get(srv.base + "/healthz"); err == nil {
		t.Error("the stopped server still accepts requests")
	}

	db := openDB(t, dbPath)
	checkIntegrity(t, db)
	stored := storedMoves(t, db, gameID)
	var status string
	if err := db.QueryRow("SELECT status FROM games WHERE id = ?", gameID).Scan(&status); err != nil {
		t.Fatal(err)
	}
	db.Close()
	mu.Lock()
	ackedN := len(acked)
	mu.Unlock()
	if len(stored) < ackedN || len(stored) > ackedN+1 {
		t.Fatalf("%d moves acknowledged, %d stored: want every acknowledged one, and at most the one in flight besides", ackedN, len(stored))
	}
	for i, m := range stored {
		if m.uci != restartMoves[i] {
			t.Errorf("stored move %d = %s, want %s", i+1, m.uci, restartMoves[i])
		}
	}
	if status != "active" {
		t.Errorf("game status after the shutdown = %q, want active", status)
	}
	t.Logf("%d moves acknowledged before SIGTERM, %d stored", ackedN, len(stored))

	srv = startServer(t, bin, addr, dbPath)
	// On a fast machine all the moves may be made before SIGTERM lands.
	next, nextMove := len(stored), restartMove21
	if next < len(restartMoves) {
		nextMove = restartMoves[next]
	}
	if err := tryMove(players[next%2], gamePath, nextMove, next); err != nil {
		t.Errorf("the resumed game refused the next move: %v", err)
	}
	srv.stop(t)
}
