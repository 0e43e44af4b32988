package main

import (
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	_ "github.com/mattn/go-sqlite3"

	"satranc/engine/chess"
	"satranc/engine/play"
)

// restartMoves are the 20 half-moves played before the crash (a Ruy Lopez,
// with castling on both sides), and restartMove21 the one played after it.
var restartMoves = strings.Fields(`e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7
	f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3 c6a5 b3c2 c7c5`)

const restartMove21 = "d2d4"

// restartDowntime is how long the server stays dead: long enough that a
// clock which did not charge it would be off by far more than the 1 s the
// test allows.
const restartDowntime = 4 * time.Second

// TestRestartKeepsGames is the process-level figure of issue 3
// (DESIGN.md "Restart safety"): two users play 20 moves of a private 3+2
// game over HTTP, the server is killed with SIGKILL and started again on the
// same database; then all 20 moves are there, the game goes on, each clock
// is within 1 s of what the restart policy says (the downtime counts against
// the side to move unless that would flag them, who then gets
// play.DefaultRestartGrace), and the database passes PRAGMA integrity_check.
func TestRestartKeepsGames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildSatranc(t, dir)
	dbPath := filepath.Join(dir, "restart.db")

	// The server comes back on the same address, as it would in production,
	// so the clients' cookies still apply.
	addr := freeAddr(t)
	srv := startServer(t, bin, addr, dbPath)
	a, b := newUser(t, srv.base, "ayse"), newUser(t, srv.base, "bora")

	gamePath, gameID, white, black := privateGame(t, a, b)
	// A second game shows the other branch of the policy: its side to move
	// is short of time when the server dies (the database is edited while
	// the server is down to make it so), and gets the restart grace.
	lowPath, lowID, lowWhite, lowBlack := privateGame(t, a, b)
	lowWhite.move(t, lowPath, "e2e4", 0)
	lowBlack.move(t, lowPath, "e7e5", 1)

	begin := time.Now()
	for ply, uci := range restartMoves {
		mover := white
		if ply%2 == 1 {
			mover = black
		}
		mover.move(t, gamePath, uci, ply)
	}
	t.Logf("20 moves played in %v", time.Since(begin).Round(time.Millisecond))

	// Crash: no shutdown, no last writes.
	srv.kill(t)
	killedAt := time.Now()
	db := openDB(t, dbPath)
	checkIntegrity(t, db)
	moves := storedMoves(t, db, gameID)
	const lowLeft = 2 * time.Second
	if _, err := db.Exec("UPDATE moves SET clock_ms = ? WHERE game_id = ? AND ply = 1", lowLeft.Milliseconds(), lowID); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if len(moves) != len(restartMoves) {
		t.Fatalf("after the crash the database has %d moves, want %d", len(moves), len(restartMoves))
	}
	for i, m := range moves {
		if m.uci != restartMoves[i] {
			t.Errorf("stored move %d = %s, want %s", i+1, m.uci, restartMoves[i])
		}
	}
	time.Sleep(restartDowntime - time.Since(killedAt))

	startedAt := time.Now()
	srv = startServer(t, bin, addr, dbPath)
	healthyAt := time.Now()
	t.Logf("downtime %v; restart took %v", startedAt.Sub(killedAt).Round(time.Millisecond), healthyAt.Sub(startedAt).Round(time.Millisecond))

	// All 20 moves are in the PGN.
	resp, body := white.getBody(t, gamePath+"/pgn")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET pgn = %d:\n%s", resp.StatusCode, body)
	}
	pg, err := chess.NewPGNReader(strings.NewReader(body), chess.English).Next()
	if err != nil {
		t.Fatalf("PGN after restart: %v\n%s", err, body)
	}
	if len(pg.Moves) != len(restartMoves) {
		t.Fatalf("PGN after restart has %d moves, want %d:\n%s", len(pg.Moves), len(restartMoves), body)
	}
	for i, m := range pg.Moves {
		if got := m.Move.String(); got != restartMoves[i] {
			t.Errorf("PGN move %d = %s, want %s", i+1, got, restartMoves[i])
		}
	}

	// The clocks: Black's stands where its last move left it; White's ran
	// from Black's last move, through the downtime, unless that would flag
	// White, who would then have the restart grace from the restart.
	whiteLeft := moves[18].clock // after White's last move
	blackLeft := moves[19].clock
	lastMove := moves[19].at
	expectWhite := func(at time.Time) time.Duration {
		left := whiteLeft - at.Sub(lastMove)
		if left < play.DefaultRestartGrace {
			// The grace starts when the server reopened the game, between
			// its start and its first healthy answer.
			left = play.DefaultRestartGrace - at.Sub(startedAt)
		}
		return left
	}
	if whiteLeft-healthyAt.Sub(lastMove) < play.DefaultRestartGrace {
		t.Fatalf("White had %v at the restart; the test wants the case without grace", whiteLeft-healthyAt.Sub(lastMove))
	}
	before := time.Now()
	_, page := black.get(t, gamePath)
	after := time.Now()
	gotWhite, runningWhite := pageClock(t, page, "white")
	gotBlack, runningBlack := pageClock(t, page, "black")
	if !runningWhite || runningBlack {
		t.Errorf("running clocks after restart: white %v, black %v; want White's only", runningWhite, runningBlack)
	}
	// The page was rendered between before and after; White's clock runs down.
	if lo, hi := expectWhite(after)-time.Second, expectWhite(before)+time.Second; gotWhite < lo || gotWhite > hi {
		t.Errorf("White's clock after restart = %v, want %v..%v (left %v after move 19, last move %v before the check, downtime %v)",
			gotWhite, lo, hi, whiteLeft, before.Sub(lastMove), startedAt.Sub(killedAt))
	}
	if d := gotBlack - blackLeft; d < -time.Second || d > time.Second {
		t.Errorf("Black's clock after restart = %v, want %v ± 1s", gotBlack, blackLeft)
	}
	t.Logf("clocks after restart: white %v (expected %v..%v), black %v (stored %v)",
		gotWhite, expectWhite(after), expectWhite(before), gotBlack, blackLeft)

	// The short game: White would have flagged during the downtime, so it
	// has the grace from the moment the server reopened the game, which is
	// between its start and its first healthy answer.
	grace := play.DefaultRestartGrace
	before = time.Now()
	_, page = lowBlack.get(t, lowPath)
	after = time.Now()
	if st, _ := page.Find(`[data-testid="game-panel"]`).Attr("data-status"); st != "active" {
		t.Errorf("the short game after restart is %q, want active", st)
	}
	gotWhite, runningWhite = pageClock(t, page, "white")
	if lo, hi := grace-after.Sub(startedAt)-time.Second, grace-before.Sub(healthyAt)+time.Second; !runningWhite || gotWhite < lo || gotWhite > hi {
		t.Errorf("short game: White's clock after restart = %v (running %v), want %v..%v", gotWhite, runningWhite, lo, hi)
	}
	t.Logf("short game: White's clock after restart %v (grace %v)", gotWhite, grace)
	lowWhite.move(t, lowPath, "g1f3", 2)

	// The game goes on: White plays move 21 at ply 20.
	white.move(t, gamePath, restartMove21, len(restartMoves))
	_, page = white.get(t, gamePath)
	if ply, _ := page.Find(`[data-testid="game-panel"]`).Attr("data-ply"); ply != "21" {
		t.Errorf("after move 21 the page is at ply %q, want 21", ply)
	}

	srv.stop(t)
	db = openDB(t, dbPath)
	defer db.Close()
	checkIntegrity(t, db)
	moves = storedMoves(t, db, gameID)
	if len(moves) != len(restartMoves)+1 || moves[20].uci != restartMove21 {
		t.Fatalf("after move 21 the database has %d moves (%v), want 21 ending with %s", len(moves), moves, restartMove21)
	}
	// The clock stored with move 21 is the clock the policy gave White,
	// charged up to that move, plus the increment.
	want := expectWhite(moves[20].at) + 2*time.Second
	if d := moves[20].clock - want; d < -time.Second || d > time.Second {
		t.Errorf("White's clock after move 21 = %v, want %v ± 1s", moves[20].clock, want)
	}
	lowMoves := storedMoves(t, db, lowID)
	if len(lowMoves) != 3 {
		t.Fatalf("the short game has %d moves, want 3", len(lowMoves))
	}
	at := lowMoves[2].at
	lo, hi := grace-at.Sub(startedAt)+2*time.Second-time.Second, grace-at.Sub(healthyAt)+2*time.Second+time.Second
	if got := lowMoves[2].clock; got < lo || got > hi {
		t.Errorf("short game: White's clock after its second move = %v, want %v..%v", got, lo, hi)
	}
	for _, id := range []int64{gameID, lowID} {
		var status string
		if err := db.QueryRow("SELECT status FROM games WHERE id = ?", id).Scan(&status); err != nil {
			t.Fatal(err)
		}
		if status != "active" {
			t.Errorf("game %d status = %q, want active", id, status)
		}
	}
}

// privateGame has a create a private 3+2 game and b join it by the invite
// link in a's page. It returns the game's path and id and its players.
func privateGame(t *testing.T, a, b *user) (path string, id int64, white, black *user) {
	t.Helper()
	path, id, invite := createPrivate(t, a)
	resp, _ := b.get(t, invite)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET invite = %d", resp.StatusCode)
	}
	resp, _ = b.post(t, invite, nil)
	if resp.StatusCode != http.StatusOK || strings.TrimSuffix(resp.Request.URL.Path, "/") != path {
		t.Fatalf("join by invite: %d at %s, want %s", resp.StatusCode, resp.Request.URL, path)
	}

	white, black = sides(t, a, b, path)
	return path, id, white, black
}

// sides returns which of a and b plays White in the game at path: who has
// White is random, and a's board says.
func sides(t *testing.T, a, b *user, path string) (white, black *user) {
	t.Helper()
	_, page := a.get(t, path)
	switch color, _ := page.Find(`[data-color]`).First().Attr("data-color"); color {
	case "w":
		return a, b
	case "b":
		return b, a
	}
	t.Fatalf("%s's board has no colour", a.name)
	return nil, nil
}

// createPrivate has a create a private 3+2 game and returns the game's
// path and id and the path of its invite link, from a's page.
func createPrivate(t *testing.T, a *user) (path string, id int64, invite string) {
	t.Helper()
	resp, page := a.post(t, "/games/private", url.Values{"control": {"3+2"}})
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.Path, "/games/") {
		t.Fatalf("create private game: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	path = strings.TrimSuffix(resp.Request.URL.Path, "/")
	id, err := strconv.ParseInt(strings.TrimPrefix(path, "/games/"), 10, 64)
	if err != nil {
		t.Fatalf("game path %q: %v", path, err)
	}
	link := strings.TrimSpace(page.Find(`[data-testid="invite-link"]`).First().Text())
	if link == "" {
		t.Fatal("the new private game's page has no invite link")
	}
	inviteURL, err := url.Parse(link)
	if err != nil || !strings.HasPrefix(inviteURL.Path, "/invite/") {
		t.Fatalf("invite link %q: %v", link, err)
	}
	return path, id, inviteURL.Path
}

// buildSatranc builds the satranc binary into dir and returns its path.
func buildSatranc(t *testing.T, dir string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	bin := filepath.Join(dir, "satranc")
	start := time.Now()
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Logf("go build took %v", time.Since(start).Round(time.Millisecond))
	return bin
}

// server is a running `satranc serve` process.
type server struct {
	base string
	cmd  *exec.Cmd
	done chan error
	logs *syncBuffer
	gone bool
}

// startServer starts `satranc serve` on addr with the database dbPath (and
// any more flags) and waits until it is healthy; the test's cleanup kills
// it if it still runs.
func startServer(t *testing.T, bin, addr, dbPath string, flags ...string) *server {
	t.Helper()
	s := &server{base: "http://" + addr, done: make(chan error, 1), logs: &syncBuffer{}}
	s.cmd = exec.Command(bin, append([]string{"serve", "--addr", addr, "--db", dbPath, "--auth-burst", "50"}, flags...)...)
	s.cmd.Stdout, s.cmd.Stderr = s.logs, s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() {
		if !s.gone {
			_ = s.cmd.Process.Kill()
			<-s.done
		}
		if t.Failed() {
			t.Logf("server %s output:\n%s", addr, s.logs.String())
		}
	})
	waitHealthy(t, &http.Client{Timeout: 5 * time.Second}, s.base+"/healthz", s.done)
	return s
}

// kill ends the server with SIGKILL, as a crash would.
func (s *server) kill(t *testing.T) {
	t.Helper()
	s.signal(t, syscall.SIGKILL)
}

// signal sends sig to the server and waits, at most 15 s, for it to exit,
// however it does.
func (s *server) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
		s.gone = true
	case <-time.After(15 * time.Second):
		t.Fatalf("server did not exit within 15s of %v", sig)
	}
}

// stop ends the server with SIGTERM and expects a clean exit.
func (s *server) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.done:
		s.gone = true
		if err != nil {
			t.Errorf("server exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not stop within 20s of SIGTERM")
	}
}

// user is a browser-like client with its own cookie jar.
type user struct {
	name   string
	base   string
	client *http.Client
}

// newUser signs a new user up and returns their client.
func newUser(t *testing.T, base, name string) *user {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	u := &user{name: name, base: base, client: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
	resp, _ := u.post(t, "/signup", url.Values{"username": {name}, "password": {"correct horse " + name}})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("sign up %s: %d at %s", name, resp.StatusCode, resp.Request.URL)
	}
	if !hasCookie(jar, base) {
		t.Fatalf("sign up %s set no session cookie", name)
	}
	return u
}

func hasCookie(jar http.CookieJar, base string) bool {
	u, _ := url.Parse(base)
	return len(jar.Cookies(u)) > 0
}

// url returns the absolute URL of path on the user's server.
func (u *user) url(path string) string { return u.base + path }

// get fetches path and parses the page.
func (u *user) get(t *testing.T, path string) (*http.Response, *goquery.Document) {
	t.Helper()
	resp, err := u.client.Get(u.url(path))
	if err != nil {
		t.Fatalf("%s: GET %s: %v", u.name, path, err)
	}
	return resp, parsePage(t, resp)
}

// getBody fetches path and returns its body as text.
func (u *user) getBody(t *testing.T, path string) (*http.Response, string) {
	t.Helper()
	resp, err := u.client.Get(u.url(path))
	if err != nil {
		t.Fatalf("%s: GET %s: %v", u.name, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// post submits a form to path as a plain browser form would (following the
// redirect) and parses the resulting page.
func (u *user) post(t *testing.T, path string, form url.Values) (*http.Response, *goquery.Document) {
	t.Helper()
	resp, err := u.client.PostForm(u.url(path), form)
	if err != nil {
		t.Fatalf("%s: POST %s: %v", u.name, path, err)
	}
	return resp, parsePage(t, resp)
}

// move plays uci at ply as htmx does, expecting 204 No Content.
func (u *user) move(t *testing.T, gamePath, uci string, ply int) {
	t.Helper()
	form := url.Values{"uci": {uci}, "ply": {strconv.Itoa(ply)}}
	req, err := http.NewRequest(http.MethodPost, u.url(gamePath+"/moves"), strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	resp, err := u.client.Do(req)
	if err != nil {
		t.Fatalf("%s: move %s at ply %d: %v", u.name, uci, ply, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("%s: move %s at ply %d = %d, want 204: %s", u.name, uci, ply, resp.StatusCode, body)
	}
}

func parsePage(t *testing.T, resp *http.Response) *goquery.Document {
	t.Helper()
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatalf("parse %s: %v", resp.Request.URL, err)
	}
	return doc
}

// pageClock reads side's clock from a game page: its time left and whether
// it runs.
func pageClock(t *testing.T, page *goquery.Document, side string) (time.Duration, bool) {
	t.Helper()
	sel := page.Find(`[data-testid="clock-` + side + `"]`)
	ms, err := strconv.ParseInt(sel.AttrOr("data-remaining-ms", ""), 10, 64)
	if sel.Length() != 1 || err != nil {
		t.Fatalf("clock-%s: %d elements, data-remaining-ms %q", side, sel.Length(), sel.AttrOr("data-remaining-ms", ""))
	}
	return time.Duration(ms) * time.Millisecond, sel.AttrOr("data-running", "") == "true"
}

// storedMove is a row of the moves table.
type storedMove struct {
	uci   string
	at    time.Time
	clock time.Duration
}

func (m storedMove) String() string {
	return fmt.Sprintf("%s@%s/%v", m.uci, m.at.Format("15:04:05.000"), m.clock)
}

// openDB opens the database file directly (the server must not run).
func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// checkIntegrity runs PRAGMA integrity_check and wants "ok".
func checkIntegrity(t *testing.T, db *sql.DB) {
	t.Helper()
	var res string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil {
		t.Fatalf("integrity_check: %v", err)
	}
	if res != "ok" {
		t.Errorf("PRAGMA integrity_check = %q, want ok", res)
	}
}

// storedMoves reads the moves of game id in order.
func storedMoves(t *testing.T, db *sql.DB, id int64) []storedMove {
	t.Helper()
	rows, err := db.Query("SELECT uci, played_at, clock_ms FROM moves WHERE game_id = ? ORDER BY ply", id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var moves []storedMove
	for rows.Next() {
		var m storedMove
		var at string
		var ms sql.NullInt64
		if err := rows.Scan(&m.uci, &at, &ms); err != nil {
			t.Fatal(err)
		}
		if m.at, err = time.Parse(time.RFC3339Nano, at); err != nil {
			t.Fatalf("played_at %q: %v", at, err)
		}
		m.clock = time.Duration(ms.Int64) * time.Millisecond
		moves = append(moves, m)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return moves
}
