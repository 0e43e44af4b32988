package main

import (
	"database/sql"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// TestRestartCancelsExpiredInvitations: a private game whose invitation
// expired while the server was down is cancelled at the restart instead of
// reopened (aborted, no result, ended when the invitation expired); its
// page tells the creator, the friend who comes too late sees the same
// page, and a private game whose invitation is still open is reopened and
// can be joined. The server runs with --invite-expiry 1h; the stale game's
// creation is moved two hours back while the server is down.
func TestRestartCancelsExpiredInvitations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildSatranc(t, dir)
	dbPath := filepath.Join(dir, "invites.db")
	addr := freeAddr(t)
	srv := startServer(t, bin, addr, dbPath, "--invite-expiry", "1h")
	a, b := newUser(t, srv.base, "ayse"), newUser(t, srv.base, "bora")

	stalePath, staleID, staleInvite := createPrivate(t, a)
	freshPath, freshID, freshInvite := createPrivate(t, a)
	if _, page := a.get(t, freshPath); !strings.Contains(page.Find(`[data-testid="invite-expires"]`).Text(), "1 hour") {
		t.Errorf("the waiting game's page does not say when the invitation expires: %q", page.Find(`[data-testid="invite"]`).Text())
	}

	srv.kill(t)
	db := openDB(t, dbPath)
	created := time.Now().UTC().Add(-2 * time.Hour).Truncate(time.Millisecond)
	if _, err := db.Exec("UPDATE games SET created_at = ? WHERE id = ?", created.Format("2006-01-02T15:04:05.000Z"), staleID); err != nil {
		t.Fatal(err)
	}
	db.Close()

	srv = startServer(t, bin, addr, dbPath, "--invite-expiry", "1h")
	db = openDB(t, dbPath)
	defer db.Close()
	if st := storedGame(t, db, staleID); st.status != "aborted" || st.termination != "invite_expired" || st.result != "*" ||
		!st.endedAt.Valid || st.endedAt.String != created.Add(time.Hour).Format("2006-01-02T15:04:05.000Z") {
		t.Errorf("the stale game after the restart: %+v; want aborted, invite_expired, *, ended %v", st, created.Add(time.Hour))
	}
	if st := storedGame(t, db, freshID); st.status != "waiting" {
		t.Errorf("the fresh game after the restart: %+v; want waiting", st)
	}
	if !strings.Contains(srv.logs.String(), "invitation expired") {
		t.Errorf("the server did not log the cancelled games:\n%s", srv.logs.String())
	}

	// The creator's page says what happened, with no invitation and no
	// rematch left to offer.
	_, page := a.get(t, stalePath)
	checkExpiredPage(t, "the creator", page)
	if page.Find(`[data-testid="invite-link"]`).Length() != 0 || page.Find(`[data-testid="rematch"]`).Length() != 0 {
		t.Error("the cancelled game's page still offers the invitation or a rematch")
	}
	// The friend who comes too late lands on the same page, as a spectator.
	resp, page := b.post(t, staleInvite, nil)
	if resp.StatusCode != http.StatusOK || strings.TrimSuffix(resp.Request.URL.Path, "/") != stalePath {
		t.Fatalf("late join: %d at %s, want %s", resp.StatusCode, resp.Request.URL, stalePath)
	}
	checkExpiredPage(t, "the late friend", page)

	// The invitation still open survived the restart.
	resp, _ = b.post(t, freshInvite, nil)
	if resp.StatusCode != http.StatusOK || strings.TrimSuffix(resp.Request.URL.Path, "/") != freshPath {
		t.Fatalf("join the fresh game: %d at %s, want %s", resp.StatusCode, resp.Request.URL, freshPath)
	}
	if st := storedGame(t, db, freshID); st.status != "active" {
		t.Errorf("the fresh game after the join: %+v; want active", st)
	}
	srv.stop(t)
	checkIntegrity(t, db)
}

// checkExpiredPage checks that a game page shows a game cancelled because
// its invitation expired.
func checkExpiredPage(t *testing.T, who string, page *goquery.Document) {
	t.Helper()
	panel := page.Find(`[data-testid="game-panel"]`)
	status := page.Find(`[data-testid="status"]`)
	if st, _ := panel.Attr("data-status"); st != "aborted" {
		t.Errorf("%s sees the game %q, want aborted", who, st)
	}
	if reason, _ := status.Attr("data-reason"); reason != "invite_expired" || !strings.Contains(status.Text(), "invitation expired") {
		t.Errorf("%s sees the status %q (%s), want the invitation's expiry", who, strings.TrimSpace(status.Text()), reason)
	}
}

// storedGameRow is a game's end as stored.
type storedGameRow struct {
	status, result, termination string
	endedAt                     sql.NullString
}

// storedGame reads how game id stands in the database.
func storedGame(t *testing.T, db *sql.DB, id int64) storedGameRow {
	t.Helper()
	var g storedGameRow
	err := db.QueryRow("SELECT status, result, termination, ended_at FROM games WHERE id = ?", id).
		Scan(&g.status, &g.result, &g.termination, &g.endedAt)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
