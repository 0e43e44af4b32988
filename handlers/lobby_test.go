package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/account"
	"satranc/engine/chips"
	"satranc/engine/clock"
	"satranc/engine/live"
	"satranc/engine/lobby"
)

// fakeLobby is the Lobby of the handler tests: players from a map, a
// status per user, and the tables joined.
type fakeLobby struct {
	mu      sync.Mutex
	players map[int64]lobby.Player
	status  map[int64]lobby.Status
	joined  []lobby.Table
	hub     *live.Hub[int64, lobby.Event]
}

func newFakeLobby() *fakeLobby {
	return &fakeLobby{players: map[int64]lobby.Player{}, status: map[int64]lobby.Status{}, hub: live.New[int64, lobby.Event](0)}
}

func (f *fakeLobby) Overview(_ context.Context, user int64) (lobby.Overview, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return lobby.OverviewOf(f.players[user]), nil
}

func (f *fakeLobby) Join(_ context.Context, user int64, t lobby.Table) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !t.Quick() {
		l, err := chips.LoungeBySlug(t.Lounge)
		if err != nil {
			return lobby.ErrUnknownTable
		}
		if err := lobby.MaySit(f.players[user], l).Err(); err != nil {
			return err
		}
	}
	f.joined = append(f.joined, t)
	f.status[user] = lobby.Status{State: lobby.Waiting, Table: t, Since: time.Now().Add(-12 * time.Second)}
	return nil
}

func (f *fakeLobby) Cancel(_ context.Context, user int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.status, user)
	return nil
}

func (f *fakeLobby) Status(_ context.Context, user int64) (lobby.Status, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status[user], nil
}

func (f *fakeLobby) Subscribe(user int64) *live.Subscription[int64, lobby.Event] {
	return f.hub.Subscribe(user)
}

func newLobbyEnv(t *testing.T) (http.Handler, *fakeLobby) {
	t.Helper()
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	lb := newFakeLobby()
	games := newFakeGames()
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games, Lobby: lb})
	return h.Routes(), lb
}

func TestLobbyPage(t *testing.T) {
	h, lb := newLobbyEnv(t)
	lb.players[ayse.ID] = lobby.Player{Balance: 30_000}
	env := &gameEnv{h: h}
	for _, lang := range []string{"en", "tr"} {
		resp := env.do(t, gameReq{target: "/lobby", as: &ayse, lang: lang})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /lobby = %d", resp.StatusCode)
		}
		doc, err := goquery.NewDocumentFromReader(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if n := doc.Find(`button[data-testid^="quick-"]`).Length(); n != len(clock.Offered) {
			t.Errorf("%s: %d Quick Play buttons, want %d", lang, n, len(clock.Offered))
		}
		want := map[string]string{
			"kahvehane": "", "kapalicarsi": "", "saray-bahcesi": "not_enough_chips",
			"has-oda": "reserved", "divan": "not_enough_chips",
		}
		for slug, refusal := range want {
			row := doc.Find(`[data-testid="lounge-` + slug + `"]`)
			if got, _ := row.Attr("data-refusal"); got != refusal {
				t.Errorf("%s: lounge %s refusal %q, want %q", lang, slug, got, refusal)
			}
			// Each row says whether the viewer may sit, and if not, why.
			maySit := strings.TrimSpace(row.Find(`[data-testid="may-sit-` + slug + `"]`).Text())
			reason := strings.TrimSpace(row.Find(`[data-testid="refusal-` + slug + `"]`).Text())
			if refusal == "" && (maySit != text(t, lang, "lobby.lounges.open") || reason != "") {
				t.Errorf("%s: open lounge %s says %q / %q, want only that the viewer may sit", lang, slug, maySit, reason)
			}
			if refusal != "" && (reason != text(t, lang, "lobby.refusal."+refusal) || maySit != "") {
				t.Errorf("%s: closed lounge %s says %q / %q, want only the reason", lang, slug, maySit, reason)
			}
		}
	}
}

func TestLobbyJoin(t *testing.T) {
	h, lb := newLobbyEnv(t)
	lb.players[ayse.ID] = lobby.Player{Balance: 4_999}
	env := &gameEnv{h: h}

	resp := env.do(t, gameReq{method: http.MethodPost, target: "/lobby/join", as: &ayse,
		form: url.Values{"lounge": {"kahvehane"}, "control": {"5+0"}}})
	body := readBody(t, resp)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, text(t, "en", "error.lobby.not_enough_chips")) {
		t.Errorf("join a lounge without chips = %d, want 403 with the reason", resp.StatusCode)
	}

	resp = env.do(t, gameReq{method: http.MethodPost, target: "/lobby/join", as: &ayse, form: url.Values{"control": {"3+2"}}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/lobby/wait" {
		t.Fatalf("join Quick Play = %d to %q, want 303 to /lobby/wait", resp.StatusCode, resp.Header.Get("Location"))
	}
	if len(lb.joined) != 1 || lb.joined[0] != (lobby.Table{Control: clock.MustParse("3+2")}) {
		t.Errorf("joined %+v, want Quick Play 3+2", lb.joined)
	}

	resp = env.do(t, gameReq{target: "/lobby/wait", as: &ayse})
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Find(`[data-testid="wait-elapsed"]`).Text(); got != "0:12" {
		t.Errorf("waiting page elapsed %q, want 0:12", got)
	}

	lb.status[ayse.ID] = lobby.Status{State: lobby.Paired, Game: 42}
	resp = env.do(t, gameReq{target: "/lobby/wait", as: &ayse, htmx: true})
	if resp.Header.Get("HX-Redirect") != "/games/42" {
		t.Errorf("htmx GET /lobby/wait when paired: HX-Redirect %q, want /games/42", resp.Header.Get("HX-Redirect"))
	}
	resp = env.do(t, gameReq{target: "/lobby/wait", as: &ayse})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/games/42" {
		t.Errorf("GET /lobby/wait when paired = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}

	lb.status[ayse.ID] = lobby.Status{State: lobby.Paired, Game: 43, Unstaked: true, Table: lobby.Table{Lounge: "kahvehane", Control: clock.MustParse("5+0")}}
	resp = env.do(t, gameReq{target: "/lobby/wait", as: &ayse})
	if body := readBody(t, resp); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="unstaked-notice"`) || !strings.Contains(body, `href="/games/43"`) {
		t.Errorf("GET /lobby/wait when paired unstaked = %d, want the notice with a link to the game", resp.StatusCode)
	}

	resp = env.do(t, gameReq{method: http.MethodPost, target: "/lobby/cancel", as: &ayse})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/lobby" {
		t.Errorf("cancel = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp = env.do(t, gameReq{target: "/lobby/wait", as: &ayse})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/lobby" {
		t.Errorf("GET /lobby/wait when idle = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}
