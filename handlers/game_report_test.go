package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/fairplay"
	"satranc/engine/play"
)

// fakeReports keeps reports as the store does: players only, one per
// reporter and game, with a usable reason.
type fakeReports struct {
	games *fakeGames
	mu    sync.Mutex
	got   map[[2]int64]string // game, reporter → reason
}

func (f *fakeReports) ReportPlayer(ctx context.Context, id, reporter int64, reason string) error {
	snap, err := f.games.Game(ctx, id)
	if err != nil {
		return err
	}
	if _, ok := snap.SideOf(reporter); !ok {
		return fmt.Errorf("fake: report: %w", play.ErrNotPlayer)
	}
	reason, err = fairplay.ParseReason(reason)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.got[[2]int64{id, reporter}]; ok {
		return fairplay.ErrAlreadyReported
	}
	f.got[[2]int64{id, reporter}] = reason
	return nil
}

func (f *fakeReports) HasReported(_ context.Context, id, reporter int64) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.got[[2]int64{id, reporter}]
	return ok, nil
}

// newReportEnv is newGameEnv with the report button.
func newReportEnv(t *testing.T, snaps ...play.Snapshot) (*gameEnv, *fakeReports) {
	t.Helper()
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	games := newFakeGames(snaps...)
	reports := &fakeReports{games: games, got: map[[2]int64]string{}}
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games, Reports: reports})
	return &gameEnv{h: h.Routes(), games: games}, reports
}

// TestGameReport: a player reports the opponent once, with a reason; the
// page then says the report was sent; a spectator has no button and is
// refused; a bad reason comes back on the game page.
func TestGameReport(t *testing.T) {
	e, reports := newReportEnv(t, testSnapshot(t, time.Now(), "e2e4"))
	report := func(as *account.User, reason string) *http.Response {
		return e.do(t, gameReq{method: http.MethodPost, target: "/games/7/report", as: as, form: url.Values{"reason": {reason}}})
	}

	doc := parse(t, e.do(t, gameReq{target: "/games/7", as: &ayse}))
	if testid(doc, "report-form").Length() != 1 || testid(doc, "report-sent").Length() != 0 {
		t.Fatal("a player has no report form")
	}
	if doc := parse(t, e.do(t, gameReq{target: "/games/7", as: &cemil})); testid(doc, "report").Length() != 0 {
		t.Error("a spectator has the report button")
	}
	if resp := report(&cemil, "watching"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("spectator's report = %d, want 403", resp.StatusCode)
	}

	resp := report(&ayse, strings.Repeat("x", fairplay.MaxReason+1))
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("too long a reason = %d, want 422", resp.StatusCode)
	}
	if got := testid(parse(t, resp), "report-error").Text(); got != text(t, "en", "report.reason_invalid") {
		t.Errorf("too long a reason says %q", got)
	}

	for range 2 { // the second time is answered the same, and stores nothing
		if resp := report(&ayse, " rude in chat "); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/games/7" {
			t.Fatalf("report = %d to %q, want 303 to the game", resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	if got := reports.got; len(got) != 1 || got[[2]int64{testGameID, ayse.ID}] != "rude in chat" {
		t.Errorf("reports %v, want ayse's one", got)
	}
	doc = parse(t, e.do(t, gameReq{target: "/games/7", as: &ayse}))
	if testid(doc, "report-sent").Length() != 1 || testid(doc, "report-form").Length() != 0 {
		t.Error("after reporting, the page still offers the form")
	}
	if doc := parse(t, e.do(t, gameReq{target: "/games/7", as: &bora})); testid(doc, "report-form").Length() != 1 {
		t.Error("ayse's report took bora's button away")
	}
}

// TestGameReportOff: without Reports there is no button and no route.
func TestGameReportOff(t *testing.T) {
	e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4"))
	if doc := parse(t, e.do(t, gameReq{target: "/games/7", as: &ayse})); testid(doc, "report").Length() != 0 {
		t.Error("report button without Reports")
	}
	resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/report", as: &ayse, form: url.Values{"reason": {"x"}}})
	if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("report without Reports = %d", resp.StatusCode)
	}
}
