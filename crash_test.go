package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/chess"
	"satranc/engine/chips"
	"satranc/engine/play"
)

// crashKills is how many times TestKillDuringLoad kills the server.
const crashKills = 10

// crashTables are the public tables the crash test's pairs play at, one
// each, so that every pair meets only itself: lounges with stakes (chips
// move at every game's start and end) and one Quick Play table.
var crashTables = []struct{ lounge, control string }{
	{"kahvehane", "3+2"}, {"kapalicarsi", "3+2"}, {"saray-bahcesi", "3+2"},
	{"kahvehane", "5+3"}, {"kapalicarsi", "5+3"}, {"", "3+2"},
}

// crashPoolSize is how many users play at each table, two at a time: the
// same-opponent rule leaves only the first three games of two accounts a
// day staked, and the test wants many staked games.
const crashPoolSize = 4

// TestKillDuringLoad is the fault test of issue 8: pairs of players join
// public tables (lounges with stakes, and Quick Play) and play random legal
// moves over HTTP, resigning now and then and starting again, while the
// server is killed with SIGKILL at random moments, crashKills times, and
// restarted on the same database. After each kill, with the server down,
// the database must hold every move the server acknowledged (answered 204)
// at its ply, pass PRAGMA integrity_check, and keep the ledger whole: each
// balance equals the sum of its entries, all balances sum to zero (no chip
// created or lost), and each lounge game's escrow holds both stakes while
// it runs and nothing once it is over. After each restart every game with
// acknowledged moves serves them again in its PGN (the resumed game).
func TestKillDuringLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildSatranc(t, dir)
	dbPath := filepath.Join(dir, "crash.db")
	addr := freeAddr(t)
	// Enough chips for every lounge the pairs sit at, however they lose;
	// no bot takes an empty seat while a pair's second player joins.
	flags := []string{"--signup-grant", "1000000", "--bot-fill-after", "10m"}
	srv := startServer(t, bin, addr, dbPath, flags...)

	acks := &ackLog{moves: map[int64]map[int]string{}}
	pairs := make([]*crashPair, len(crashTables))
	for i, tb := range crashTables {
		var pool []*user
		for j := range crashPoolSize {
			pool = append(pool, crashUser(t, srv.base, fmt.Sprintf("crash%d_%d", i, j)))
		}
		pairs[i] = &crashPair{
			pool:   pool,
			lounge: tb.lounge, control: tb.control,
			rng:  rand.New(rand.NewPCG(uint64(i), 8)),
			acks: acks,
		}
	}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, p := range pairs {
		wg.Go(func() { p.run(ctx) })
	}
	defer func() { stop(); wg.Wait() }()

	rng := rand.New(rand.NewPCG(8, 8))
	checked := 0
	for kill := 1; kill <= crashKills; kill++ {
		// Let the pairs play, then crash at a random moment.
		time.Sleep(300*time.Millisecond + time.Duration(rng.Int64N(int64(1200*time.Millisecond))))
		srv.kill(t)
		n := checkAfterCrash(t, dbPath, acks)
		checked += n
		if t.Failed() {
			t.Fatalf("after kill %d", kill)
		}
		srv = startServer(t, bin, addr, dbPath, flags...)
		checkResumed(t, srv.base, pairs[0].pool[0], acks)
		if t.Failed() {
			t.Fatalf("after restart %d", kill)
		}
	}
	stop()
	wg.Wait()
	srv.stop(t)
	checkAfterCrash(t, dbPath, acks)
	games, moves := acks.size()
	t.Logf("%d kills; %d acknowledged moves in %d games checked after the kills (%d at the end)", crashKills, checked, games, moves)
	if moves < 10*crashKills {
		t.Errorf("only %d moves were acknowledged: the load did not run", moves)
	}
}

// ackLog records the moves the server acknowledged, by game and ply.
type ackLog struct {
	mu    sync.Mutex
	moves map[int64]map[int]string
}

func (a *ackLog) add(game int64, ply int, uci string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.moves[game] == nil {
		a.moves[game] = map[int]string{}
	}
	a.moves[game][ply] = uci
}

// snapshot returns a copy of the log.
func (a *ackLog) snapshot() map[int64]map[int]string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make(map[int64]map[int]string, len(a.moves))
	for g, m := range a.moves {
		out[g] = make(map[int]string, len(m))
		for p, u := range m {
			out[g][p] = u
		}
	}
	return out
}

func (a *ackLog) size() (games, moves int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range a.moves {
		moves += len(m)
	}
	return len(a.moves), moves
}

// checkAfterCrash checks the database of a dead server: every acknowledged
// move, the integrity check and the ledger. It returns how many
// acknowledged moves it checked.
func checkAfterCrash(t *testing.T, dbPath string, acks *ackLog) int {
	t.Helper()
	db := openDB(t, dbPath)
	defer db.Close()
	checkIntegrity(t, db)
	n := 0
	for game, plies := range acks.snapshot() {
		stored := storedMoves(t, db, game)
		for ply, uci := range plies {
			n++
			if ply > len(stored) {
				t.Errorf("game %d: acknowledged move %d (%s) is not in the database (%d moves)", game, ply, uci, len(stored))
			} else if stored[ply-1].uci != uci {
				t.Errorf("game %d: acknowledged move %d is %s, the database has %s", game, ply, uci, stored[ply-1].uci)
			}
		}
	}
	checkLedger(t, db)
	return n
}

// checkLedger checks that no chip was created or lost: each balance is the
// sum of its ledger entries, all balances sum to zero (the issuer's is
// minus every chip issued), and a lounge game's escrow holds both stakes
// while the game runs (unless the same-opponent rule made it unstaked) and
// nothing once it is over.
func checkLedger(t *testing.T, db *sql.DB) {
	t.Helper()
	var bad, total, rows int64
	err := db.QueryRow(`SELECT
		COUNT(*) FILTER (WHERE balance != COALESCE((SELECT SUM(amount) FROM ledger WHERE credit_kind = b.kind AND credit_id = b.id), 0)
			- COALESCE((SELECT SUM(amount) FROM ledger WHERE debit_kind = b.kind AND debit_id = b.id), 0)),
		COALESCE(SUM(balance), 0), COUNT(*)
		FROM balances b`).Scan(&bad, &total, &rows)
	if err != nil {
		t.Fatalf("ledger: %v", err)
	}
	if bad != 0 || total != 0 || rows == 0 {
		t.Errorf("ledger: %d of %d balances differ from their entries; the balances sum to %d, want 0", bad, rows, total)
	}
	q, err := db.Query(`SELECT g.id, g.status, g.stake, g.unstaked, g.settled,
		COALESCE((SELECT balance FROM balances WHERE kind = ? AND id = g.id), 0)
		FROM games g WHERE g.kind = ?`, chips.Escrow.String(), string(play.Lounge))
	if err != nil {
		t.Fatalf("escrow: %v", err)
	}
	defer q.Close()
	var lounge, staked, settledN int
	defer func() { t.Logf("ledger ok: %d lounge games, %d staked, %d settled", lounge, staked, settledN) }()
	for q.Next() {
		var id, stake, escrow int64
		var status string
		var unstaked, settled bool
		if err := q.Scan(&id, &status, &stake, &unstaked, &settled, &escrow); err != nil {
			t.Fatal(err)
		}
		lounge++
		if !unstaked {
			staked++
		}
		if settled {
			settledN++
		}
		running := status == "waiting" || status == "active"
		want := int64(0)
		if running && !unstaked {
			want = 2 * stake
		}
		if escrow != want || running == settled {
			t.Errorf("lounge game %d (%s, stake %d, unstaked %v, settled %v): escrow %d, want %d", id, status, stake, unstaked, settled, escrow, want)
		}
	}
	if err := q.Err(); err != nil {
		t.Fatal(err)
	}
}

// checkResumed fetches, through viewer, the PGN of every game with
// acknowledged moves from the restarted server: each move is there.
func checkResumed(t *testing.T, base string, viewer *user, acks *ackLog) {
	t.Helper()
	for game, plies := range acks.snapshot() {
		moves, _, err := viewer.pgnMoves(context.Background(), fmt.Sprintf("/games/%d", game))
		if err != nil {
			t.Errorf("game %d after the restart: %v", game, err)
			continue
		}
		for ply, uci := range plies {
			if ply > len(moves) || moves[ply-1] != uci {
				t.Errorf("game %d after the restart: acknowledged move %d (%s) missing from the PGN %v", game, ply, uci, moves)
			}
		}
	}
}

// crashUser signs a user up at base, with a client that gives up quickly
// on a dead server.
func crashUser(t *testing.T, base, name string) *user {
	t.Helper()
	u := newUser(t, base, name)
	jar := u.client.Jar
	u.client = &http.Client{Jar: jar, Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	return u
}

// crashPair is two users who play each other at their own table, a new
// pair from its pool for each game, one game after another, through every
// crash.
type crashPair struct {
	pool            []*user
	users           [2]*user // users[0] has White in the current game
	lounge, control string
	rng             *rand.Rand
	acks            *ackLog

	game   int64  // the current game, 0 for none
	path   string // its page
	target int    // the ply at which users[0] resigns
}

// run plays until ctx is done. Any failure (the server died, or came back
// with state the pair did not expect) makes it start over from what the
// server says: the current game's PGN, or a new game.
func (p *crashPair) run(ctx context.Context) {
	for ctx.Err() == nil {
		if err := p.step(ctx); err != nil && ctx.Err() == nil {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// step makes one move, or finds a game to play.
func (p *crashPair) step(ctx context.Context) error {
	if p.game == 0 {
		return p.seat(ctx)
	}
	moves, over, err := p.users[0].pgnMoves(ctx, p.path)
	if err != nil {
		return err
	}
	if over || len(moves) >= p.target {
		if !over {
			_ = p.users[0].postHTMX(ctx, p.path+"/resign", nil)
		}
		p.game = 0
		return nil
	}
	g := chess.NewGame(chess.StartPosition())
	for _, uci := range moves {
		pos := g.Position()
		m, err := pos.ParseUCI(uci)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return fmt.Errorf("replay %s: %w", uci, err)
		}
	}
	pos := g.Position()
	legal := pos.AppendLegalMoves(nil)
	if len(legal) == 0 {
		p.game = 0
		return nil
	}
	m := legal[p.rng.IntN(len(legal))].String()
	ply := len(moves)
	err = p.users[ply%2].postHTMX(ctx, p.path+"/moves", url.Values{"uci": {m}, "ply": {strconv.Itoa(ply)}})
	if err != nil {
		return err
	}
	p.acks.add(p.game, ply+1, m)
	return nil
}

// seat has both users join the pair's table and waits until the lobby
// pairs them; it learns the game and who has White.
func (p *crashPair) seat(ctx context.Context) error {
	i := p.rng.IntN(len(p.pool))
	j := (i + 1 + p.rng.IntN(len(p.pool)-1)) % len(p.pool)
	p.users = [2]*user{p.pool[i], p.pool[j]}
	form := url.Values{"control": {p.control}, "lounge": {p.lounge}}
	for _, u := range p.users {
		if err := u.postHTMX(ctx, "/lobby/join", form); err != nil {
			return err
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	var paths [2]string
	for i, u := range p.users {
		for paths[i] == "" {
			to, err := u.waitRedirect(ctx)
			switch {
			case err != nil:
				return err
			case to == "/lobby":
				return errors.New("not waiting any more")
			case strings.HasPrefix(to, "/games/"):
				paths[i] = to
			case time.Now().After(deadline):
				return errors.New("not paired within 10 s")
			default:
				time.Sleep(20 * time.Millisecond)
			}
		}
	}
	if paths[0] != paths[1] {
		return fmt.Errorf("paired into %s and %s", paths[0], paths[1])
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(paths[0], "/games/"), 10, 64)
	if err != nil {
		return err
	}
	white, err := p.users[0].colour(ctx, paths[0])
	if err != nil {
		return err
	}
	if !white {
		p.users[0], p.users[1] = p.users[1], p.users[0]
	}
	p.game, p.path, p.target = id, paths[0], 4+p.rng.IntN(40)
	return nil
}

// postHTMX posts form to path as htmx does and wants a 2xx answer.
func (u *user) postHTMX(ctx context.Context, path string, form url.Values) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.url(path), strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	resp, err := u.client.Do(req)
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusSeeOther {
		return fmt.Errorf("POST %s = %d: %.200s", path, resp.StatusCode, body)
	}
	return nil
}

// waitRedirect asks the waiting page, as htmx does, where to go: the
// game's path once paired, "/lobby" when not waiting, "" while waiting.
func (u *user) waitRedirect(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.url("/lobby/wait"), nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("HX-Request", "true")
	resp, err := u.client.Do(req)
	if err != nil {
		return "", err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("GET /lobby/wait = %d", resp.StatusCode)
	}
	return strings.TrimSuffix(resp.Header.Get("HX-Redirect"), "/"), nil
}

// colour reports whether u has White in the game at path.
func (u *user) colour(ctx context.Context, path string) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.url(path), nil)
	if err != nil {
		return false, err
	}
	resp, err := u.client.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("GET %s = %d", path, resp.StatusCode)
	}
	page, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		return false, fmt.Errorf("GET %s: %w", path, err)
	}
	switch c, _ := page.Find(`[data-color]`).First().Attr("data-color"); c {
	case "w":
		return true, nil
	case "b":
		return false, nil
	}
	return false, fmt.Errorf("%s: no board colour", path)
}

// pgnMoves reads the moves of the game at path from its PGN download, and
// whether the game is over.
func (u *user) pgnMoves(ctx context.Context, path string) ([]string, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.url(path+"/pgn"), nil)
	if err != nil {
		return nil, false, err
	}
	resp, err := u.client.Do(req)
	if err != nil {
		return nil, false, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, false, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, false, fmt.Errorf("GET %s/pgn = %d", path, resp.StatusCode)
	}
	pg, err := chess.NewPGNReader(strings.NewReader(string(body)), chess.English).Next()
	if err != nil {
		return nil, false, fmt.Errorf("%s PGN: %w", path, err)
	}
	moves := make([]string, len(pg.Moves))
	for i, m := range pg.Moves {
		moves[i] = m.Move.String()
	}
	return moves, pg.Result != "*", nil
}
