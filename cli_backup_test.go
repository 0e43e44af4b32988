package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"satranc/engine/chess"
)

func TestBackupUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		args       []string
		code       int
		wantStderr string
	}{
		{"no file", []string{"backup"}, 2, "want exactly one backup FILE"},
		{"two files", []string{"backup", "a.db", "b.db"}, 2, "want exactly one backup FILE"},
		{"missing database", []string{"backup", "--db", filepath.Join(dir, "none.db"), filepath.Join(dir, "b.db")}, 1, "no such file"},
		{"help", []string{"backup", "-h"}, 0, "remove any stale -wal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.wantStderr) {
				t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), tc.code, tc.wantStderr)
			}
		})
	}
}

// TestBackupDuringPlay is issue 9's backup figure: while two players make
// moves over HTTP, `satranc backup` copies the live database; a second
// server started on the copy is healthy, has the game with at least every
// move acknowledged before the backup began, and plays on; the copy passes
// PRAGMA integrity_check.
func TestBackupDuringPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildSatranc(t, dir)
	dbPath := filepath.Join(dir, "live.db")
	srv := startServer(t, bin, freeAddr(t), dbPath)
	a, b := newUser(t, srv.base, "ayse"), newUser(t, srv.base, "bora")
	gamePath, _, white, black := privateGame(t, a, b)

	// The players move in the background; acked counts the moves the
	// server has acknowledged.
	var acked atomic.Int32
	var wg sync.WaitGroup
	var playErr error
	wg.Go(func() {
		for ply, uci := range restartMoves {
			mover := white
			if ply%2 == 1 {
				mover = black
			}
			if playErr = tryMove(mover, gamePath, uci, ply); playErr != nil {
				return
			}
			acked.Add(1)
			time.Sleep(25 * time.Millisecond) // a brisk human pace, so the backup lands mid-game
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for acked.Load() < 4 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	before := int(acked.Load())
	backupPath := filepath.Join(dir, "backup.db")
	out, err := exec.Command(bin, "backup", "--db", dbPath, backupPath).CombinedOutput()
	during := int(acked.Load())
	wg.Wait()
	if err != nil {
		t.Fatalf("satranc backup: %v\n%s", err, out)
	}
	if playErr != nil {
		t.Fatalf("playing during the backup: %v", playErr)
	}
	t.Logf("backup: %s(acknowledged moves: %d before, %d after)", out, before, during)
	if before < 4 {
		t.Fatalf("only %d moves acknowledged before the backup", before)
	}

	// A second backup onto the same file is refused.
	out, err = exec.Command(bin, "backup", "--db", dbPath, backupPath).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "already exists") {
		t.Errorf("backup onto an existing file: %v, %s; want a refusal", err, out)
	}

	db := openDB(t, backupPath)
	checkIntegrity(t, db)
	db.Close()

	// Restore: a second server on the copy (the original keeps running).
	restored := startServer(t, bin, freeAddr(t), backupPath)
	resp, err := http.Get(restored.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("restored /healthz = %d", resp.StatusCode)
	}
	players := map[string]*user{}
	for _, u := range []*user{white, black} {
		players[u.name] = logIn(t, restored.base, u.name)
	}
	rw := players[white.name]
	resp, body := rw.getBody(t, gamePath+"/pgn")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("restored GET pgn = %d:\n%s", resp.StatusCode, body)
	}
	pg, err := chess.NewPGNReader(strings.NewReader(body), chess.English).Next()
	if err != nil {
		t.Fatalf("restored PGN: %v\n%s", err, body)
	}
	n := len(pg.Moves)
	if n < before {
		t.Fatalf("restored game has %d moves, want at least %d", n, before)
	}
	for i, m := range pg.Moves {
		if got := m.Move.String(); got != restartMoves[i] {
			t.Errorf("restored move %d = %s, want %s", i+1, got, restartMoves[i])
		}
	}

	// The restored game goes on.
	mover := players[white.name]
	if n%2 == 1 {
		mover = players[black.name]
	}
	next := append(restartMoves[:len(restartMoves):len(restartMoves)], restartMove21)[n]
	if err := tryMove(mover, gamePath, next, n); err != nil {
		t.Errorf("move on the restored server: %v", err)
	}
	restored.stop(t)
	srv.stop(t)
}

// logIn logs the user name (signed up by newUser) in at base with a fresh
// cookie jar.
func logIn(t *testing.T, base, name string) *user {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	u := &user{name: name, base: base, client: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
	resp, _ := u.post(t, "/login", url.Values{"username": {name}, "password": {"correct horse " + name}})
	if resp.StatusCode != http.StatusOK || !hasCookie(jar, base) {
		t.Fatalf("log in %s: %d at %s", name, resp.StatusCode, resp.Request.URL)
	}
	return u
}

// tryMove plays uci at ply as htmx does and returns an error unless the
// server answers 204; unlike user.move it may run outside the test's
// goroutine.
func tryMove(u *user, gamePath, uci string, ply int) error {
	code, body, err := postMove(u, gamePath, uci, ply)
	if err != nil {
		return fmt.Errorf("%s: move %s at ply %d: %w", u.name, uci, ply, err)
	}
	if code != http.StatusNoContent {
		return fmt.Errorf("%s: move %s at ply %d = %d, want 204: %s", u.name, uci, ply, code, body)
	}
	return nil
}

// postMove posts uci at ply as htmx does and returns the answer's status
// and body.
func postMove(u *user, gamePath, uci string, ply int) (int, []byte, error) {
	form := url.Values{"uci": {uci}, "ply": {strconv.Itoa(ply)}}
	req, err := http.NewRequest(http.MethodPost, u.url(gamePath+"/moves"), strings.NewReader(form.Encode()))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	resp, err := u.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, body, err
}
