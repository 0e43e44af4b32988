package handlers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/live"
	"satranc/engine/play"
	"satranc/locales"
)

// The users of the game tests: the two players of testGameID and a
// spectator. Their session tokens are "tok-" and the name.
var (
	ayse  = account.User{ID: 1, Name: "ayse", Language: "en"}
	bora  = account.User{ID: 2, Name: "bora", Language: "en"}
	cemil = account.User{ID: 3, Name: "cemil", Language: "en"}
)

// testGameID is the game the fake Games knows.
const testGameID = 7

// fakeAccounts is the Accounts and Users of the game tests: a fixed set of
// users, each logged in with the session token "tok-" + name.
type fakeAccounts struct{ users []account.User }

func (f *fakeAccounts) SignUp(context.Context, string, string, string) (account.User, account.Session, error) {
	return account.User{}, account.Session{}, fmt.Errorf("fake: sign-up: %w", errUnavailable)
}

func (f *fakeAccounts) LogIn(context.Context, string, string, string) (account.User, account.Session, error) {
	return account.User{}, account.Session{}, account.ErrBadCredentials
}

func (f *fakeAccounts) LogOut(context.Context, string) error { return nil }

func (f *fakeAccounts) UserBySession(_ context.Context, token string) (account.User, error) {
	for _, u := range f.users {
		if token == "tok-"+u.Name {
			return u, nil
		}
	}
	return account.User{}, account.ErrNoSession
}

func (f *fakeAccounts) UpdateProfile(context.Context, int64, account.Profile) (account.User, error) {
	return account.User{}, errUnavailable
}

// SaveSound keeps the choice on the user, for the next request.
func (f *fakeAccounts) SaveSound(_ context.Context, id int64, on bool) error {
	for i := range f.users {
		if f.users[i].ID == id {
			f.users[i].SoundOff = !on
			return nil
		}
	}
	return account.ErrNotFound
}

func (f *fakeAccounts) UserByID(_ context.Context, id int64) (account.User, error) {
	for _, u := range f.users {
		if u.ID == id {
			return u, nil
		}
	}
	return account.User{}, account.ErrNotFound
}

// call is one call the fake Games received.
type call struct {
	method  string
	game    int64
	user    int64
	text    string        // Move's text, JoinPrivateGame's token
	letters chess.Letters // Move's letters
	ply     int           // Move's expected ply
	lag     time.Duration // Move's measured round trip (lag.go)
	accept  bool          // AnswerDraw's answer
}

// fakeGames is a Games that serves one snapshot per game, records the
// calls it gets and answers them with the errors the test chooses.
type fakeGames struct {
	hub *live.Hub[int64, *play.Event]

	mu     sync.Mutex
	snaps  map[int64]play.Snapshot
	errs   map[string]error // by method name
	calls  []call
	joinID int64  // what JoinPrivateGame returns
	newID  int64  // what Rematch returns
	pgn    string // what PGN returns
	pgnOpt play.PGNOptions

	// connected and disconnected receive the user of each Connected and
	// Disconnected call.
	connected, disconnected chan int64
}

func newFakeGames(snaps ...play.Snapshot) *fakeGames {
	f := &fakeGames{
		hub:          live.New[int64, *play.Event](0),
		snaps:        make(map[int64]play.Snapshot),
		errs:         make(map[string]error),
		connected:    make(chan int64, 16),
		disconnected: make(chan int64, 16),
	}
	for _, s := range snaps {
		f.snaps[s.ID] = s
	}
	return f
}

// record notes c and returns the error set for its method.
func (f *fakeGames) record(c call) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, c)
	return f.errs[c.method]
}

// setErr makes method fail with err.
func (f *fakeGames) setErr(method string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs[method] = err
}

// setSnap replaces the snapshot of its game.
func (f *fakeGames) setSnap(s play.Snapshot) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.snaps[s.ID] = s
}

// changes returns the calls received other than reads (Game, PGN).
func (f *fakeGames) changes() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []call
	for _, c := range f.calls {
		if c.method != "Game" && c.method != "PGN" {
			out = append(out, c)
		}
	}
	return out
}

func (f *fakeGames) CreatePracticeGame(_ context.Context, user int64, level game.Level, control clock.Control, color play.ColorChoice) (int64, error) {
	return testGameID, f.record(call{method: "CreatePracticeGame", user: user, text: fmt.Sprint(level, " ", control, " ", color)})
}

func (f *fakeGames) CreatePrivateGame(_ context.Context, user int64, control clock.Control) (int64, string, error) {
	return testGameID, "secret", f.record(call{method: "CreatePrivateGame", user: user, text: control.String()})
}

func (f *fakeGames) JoinPrivateGame(_ context.Context, user int64, token string) (int64, error) {
	err := f.record(call{method: "JoinPrivateGame", user: user, text: token})
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.joinID, err
}

func (f *fakeGames) Invitation(_ context.Context, token string) (play.Snapshot, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.snaps {
		if s.InviteToken != "" && s.InviteToken == token {
			return s, nil
		}
	}
	return play.Snapshot{}, fmt.Errorf("fake: invite %q: %w", token, play.ErrNotFound)
}

func (f *fakeGames) DeclinePrivateGame(_ context.Context, user int64, token string) (int64, error) {
	err := f.record(call{method: "DeclinePrivateGame", user: user, text: token})
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.joinID, err
}

func (f *fakeGames) Game(_ context.Context, id int64) (play.Snapshot, error) {
	if err := f.record(call{method: "Game", game: id}); err != nil {
		return play.Snapshot{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.snaps[id]
	if !ok {
		return play.Snapshot{}, fmt.Errorf("fake: game %d: %w", id, play.ErrNotFound)
	}
	return s, nil
}

func (f *fakeGames) MoveWithLag(_ context.Context, id, user int64, text string, l chess.Letters, expectedPly int, lag time.Duration) error {
	return f.record(call{method: "Move", game: id, user: user, text: text, letters: l, ply: expectedPly, lag: lag})
}

func (f *fakeGames) Resign(_ context.Context, id, user int64) error {
	return f.record(call{method: "Resign", game: id, user: user})
}

func (f *fakeGames) Leave(_ context.Context, id, user int64) error {
	return f.record(call{method: "Leave", game: id, user: user})
}

func (f *fakeGames) OfferDraw(_ context.Context, id, user int64) error {
	return f.record(call{method: "OfferDraw", game: id, user: user})
}

func (f *fakeGames) AnswerDraw(_ context.Context, id, user int64, accept bool) error {
	return f.record(call{method: "AnswerDraw", game: id, user: user, accept: accept})
}

func (f *fakeGames) Rematch(_ context.Context, id, user int64) (int64, error) {
	err := f.record(call{method: "Rematch", game: id, user: user})
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.newID, err
}

func (f *fakeGames) Connected(_ context.Context, id, user int64) error {
	err := f.record(call{method: "Connected", game: id, user: user})
	f.connected <- user
	return err
}

func (f *fakeGames) Disconnected(id, user int64) {
	_ = f.record(call{method: "Disconnected", game: id, user: user})
	f.disconnected <- user
}

func (f *fakeGames) PGN(_ context.Context, id int64, o play.PGNOptions) (string, error) {
	err := f.record(call{method: "PGN", game: id})
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pgnOpt = o
	return f.pgn, err
}

func (f *fakeGames) Subscribe(gameID int64) *live.Subscription[int64, *play.Event] {
	_ = f.record(call{method: "Subscribe", game: gameID})
	return f.hub.Subscribe(gameID)
}

// testSnapshot returns testGameID as a private 3+2 game between ayse
// (White) and bora (Black) after the UCI moves, taken at now.
func testSnapshot(t *testing.T, now time.Time, moves ...string) play.Snapshot {
	t.Helper()
	control, err := clock.ParseControl("3+2")
	if err != nil {
		t.Fatal(err)
	}
	start := now.Add(-time.Minute)
	g := game.New(game.Options{White: game.Human(ayse.ID), Black: game.Human(bora.ID), Control: control}, start)
	for i, uci := range moves {
		p := g.Position()
		m, err := p.ParseUCI(uci)
		if err != nil {
			t.Fatalf("move %d %s: %v", i+1, uci, err)
		}
		if _, err := g.Move(p.SideToMove(), m, i, start.Add(time.Duration(i+1)*time.Second)); err != nil {
			t.Fatalf("move %d %s: %v", i+1, uci, err)
		}
	}
	return snapshotOfGame(testGameID, play.Private, g, now)
}

// snapshotOfGame copies g as engine/play would.
func snapshotOfGame(id int64, kind play.Kind, g *game.Game, now time.Time) play.Snapshot {
	s := play.Snapshot{
		ID: id, Kind: kind, White: g.Seat(chess.White), Black: g.Seat(chess.Black),
		Control: g.Control(), Status: g.Status(), Outcome: g.Outcome(),
		Start: g.Start(), Position: g.Position(),
		Moves: append([]game.MoveRecord(nil), g.Moves()...), Ply: g.Ply(),
		Clocks:          g.Clocks(now),
		DisconnectGrace: g.DisconnectGrace(),
		StartedAt:       g.StartedAt(), EndedAt: g.EndedAt(),
	}
	s.DrawOfferBy, s.DrawOffer = g.DrawOffer()
	_, s.FirstMoveBy, _ = g.FirstMoveDeadline()
	return s
}

// gameEnv is a Handler with the fake games and accounts.
type gameEnv struct {
	h     http.Handler
	games *fakeGames
}

func newGameEnv(t *testing.T, snaps ...play.Snapshot) *gameEnv {
	t.Helper()
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	games := newFakeGames(snaps...)
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games})
	return &gameEnv{h: h.Routes(), games: games}
}

// gameReq is one request of a game test.
type gameReq struct {
	method, target string
	as             *account.User // nil: a guest
	form           url.Values
	htmx           bool
	lang           string // ?lang=, which beats the user's profile language
}

func (e *gameEnv) do(t *testing.T, rq gameReq) *http.Response {
	t.Helper()
	if rq.method == "" {
		rq.method = http.MethodGet
	}
	var body io.Reader
	if rq.form != nil {
		body = strings.NewReader(rq.form.Encode())
	}
	target := rq.target
	if rq.lang != "" {
		target += "?lang=" + rq.lang
	}
	req := httptest.NewRequest(rq.method, target, body)
	if rq.form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if rq.as != nil {
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: "tok-" + rq.as.Name})
	}
	if rq.htmx {
		req.Header.Set("HX-Request", "true")
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec.Result()
}

// text returns the message id in lang, as the pages show it.
func text(t *testing.T, lang, id string) string {
	t.Helper()
	s, err := i18n.NewLocalizer(locales.Default(), lang).Localize(&i18n.LocalizeConfig{MessageID: id})
	if err != nil || s == "" {
		t.Fatalf("no %s text for %s: %v", lang, id, err)
	}
	return s
}

func readBody(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGameMoveResponses(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		htmx     bool
		lang     string
		status   int
		message  string // message id shown, if any
		fragment bool   // the answer is the move form's fragment, not a page
	}{
		{name: "htmx ok", htmx: true, status: http.StatusNoContent},
		{name: "form ok", status: http.StatusSeeOther},
		{name: "htmx stale ply", err: fmt.Errorf("play: %w", game.ErrStalePly), htmx: true, status: http.StatusConflict, message: "error.game.stale", fragment: true},
		{name: "htmx not your turn", err: game.ErrNotYourTurn, htmx: true, status: http.StatusConflict, message: "error.game.not_your_turn", fragment: true},
		{name: "htmx illegal", err: fmt.Errorf("game: move: %w", chess.ErrIllegalMove), htmx: true, status: http.StatusUnprocessableEntity, message: "error.game.illegal", fragment: true},
		{name: "htmx illegal in Turkish", err: chess.ErrIllegalMove, htmx: true, lang: "tr", status: http.StatusUnprocessableEntity, message: "error.game.illegal", fragment: true},
		{name: "htmx unreadable", err: chess.ErrInvalidSAN, htmx: true, status: http.StatusUnprocessableEntity, message: "error.game.unreadable", fragment: true},
		{name: "form illegal", err: chess.ErrIllegalMove, status: http.StatusUnprocessableEntity, message: "error.game.illegal"},
		{name: "form stale ply", err: game.ErrStalePly, status: http.StatusConflict, message: "error.game.stale"},
		{name: "not a player", err: play.ErrNotPlayer, htmx: true, status: http.StatusForbidden},
		{name: "store down", err: errors.New("store: disk I/O error"), htmx: true, status: http.StatusInternalServerError},
		{name: "store past its deadline", err: fmt.Errorf("store: %w", context.DeadlineExceeded), htmx: true, status: http.StatusServiceUnavailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4"))
			e.games.setErr("Move", tc.err)
			resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/moves", as: &bora, htmx: tc.htmx, lang: tc.lang,
				form: url.Values{"uci": {"e7e5"}, "ply": {"1"}}})
			body := readBody(t, resp)
			if resp.StatusCode != tc.status {
				t.Fatalf("POST move = %d, want %d:\n%s", resp.StatusCode, tc.status, body)
			}
			wantLetters := chess.English
			if tc.lang == "tr" {
				wantLetters = chess.Turkish
			}
			want := []call{{method: "Move", game: testGameID, user: bora.ID, text: "e7e5", letters: wantLetters, ply: 1}}
			if got := e.games.changes(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("calls = %+v, want %+v", got, want)
			}
			switch {
			case tc.status == http.StatusSeeOther:
				if loc := resp.Header.Get("Location"); loc != "/games/7" {
					t.Errorf("Location = %q, want /games/7", loc)
				}
			case tc.status == http.StatusNoContent:
				if body != "" {
					t.Errorf("204 with a body: %q", body)
				}
			}
			if tc.message == "" {
				return
			}
			lang := tc.lang
			if lang == "" {
				lang = "en"
			}
			msg := text(t, lang, tc.message)
			if tc.fragment {
				if got := strings.TrimSpace(body); !strings.Contains(got, htmlText(msg)) || strings.Contains(got, "<html") {
					t.Errorf("fragment = %q, want just %q", got, msg)
				}
				return
			}
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(testid(doc, "move-error").Text()); got != msg {
				t.Errorf("page's move error = %q, want %q", got, msg)
			}
			if testid(doc, "board").Length() != 1 || testid(doc, "move-form").Length() != 1 {
				t.Error("the refused move's page lacks the board or the move form")
			}
		})
	}
}

// htmlText escapes s as templ writes text.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

func TestGameMoveFields(t *testing.T) {
	tests := []struct {
		name   string
		form   url.Values
		status int
		text   string // the move passed on; "" for none
		ply    int
	}{
		{"uci", url.Values{"uci": {"e7e5"}, "ply": {"1"}}, http.StatusNoContent, "e7e5", 1},
		{"typed", url.Values{"uci": {""}, "move": {" e5 "}, "ply": {"1"}}, http.StatusNoContent, "e5", 1},
		{"uci wins over typed", url.Values{"uci": {"e7e5"}, "move": {"d5"}, "ply": {"1"}}, http.StatusNoContent, "e7e5", 1},
		{"stale ply passed on", url.Values{"uci": {"e7e5"}, "ply": {"0"}}, http.StatusNoContent, "e7e5", 0},
		{"no ply", url.Values{"uci": {"e7e5"}}, http.StatusBadRequest, "", 0},
		{"bad ply", url.Values{"uci": {"e7e5"}, "ply": {"one"}}, http.StatusBadRequest, "", 0},
		{"no move", url.Values{"uci": {" "}, "move": {""}, "ply": {"1"}}, http.StatusBadRequest, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4"))
			resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/moves", as: &bora, htmx: true, form: tc.form})
			if resp.StatusCode != tc.status {
				t.Fatalf("POST move = %d, want %d", resp.StatusCode, tc.status)
			}
			calls := e.games.changes()
			if tc.text == "" {
				if len(calls) != 0 {
					t.Errorf("calls = %+v, want none", calls)
				}
				return
			}
			if len(calls) != 1 || calls[0].text != tc.text || calls[0].ply != tc.ply {
				t.Errorf("calls = %+v, want Move %q at ply %d", calls, tc.text, tc.ply)
			}
		})
	}
}

func TestGamePageOrientation(t *testing.T) {
	tests := []struct {
		name            string
		as              account.User
		orientation     string
		firstSquare     string
		bottom, top     string // data-testid of the player bars
		bottomName      string
		player          bool
		interactive     string
		wantColor       string
		wantStatusMatch string
	}{
		{"white player", ayse, "white", "a8", "player-white", "player-black", "ayse", true, "false", "w", "game.status.their_move"},
		{"black player", bora, "black", "h1", "player-black", "player-white", "bora", true, "true", "b", "game.status.your_move"},
		{"spectator", cemil, "white", "a8", "player-white", "player-black", "ayse", false, "", "", "game.status.black_to_move"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4"))
			resp := e.do(t, gameReq{target: "/games/7", as: &tc.as})
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET game = %d", resp.StatusCode)
			}
			if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control = %q, want no-store", cc)
			}
			doc := parse(t, resp)
			board := testid(doc, "board")
			if o := board.AttrOr("data-orientation", ""); o != tc.orientation {
				t.Errorf("orientation = %q, want %q", o, tc.orientation)
			}
			if sq := board.Find(`[data-testid="square"]`).First().AttrOr("data-square", ""); sq != tc.firstSquare {
				t.Errorf("top-left square = %q, want %q", sq, tc.firstSquare)
			}
			bars := doc.Find(".player-bar")
			if bars.Length() != 2 || bars.First().AttrOr("data-testid", "") != tc.top || bars.Last().AttrOr("data-testid", "") != tc.bottom {
				t.Errorf("player bars top to bottom: %v, want %s then %s", bars.Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("data-testid", "") }), tc.top, tc.bottom)
			}
			if name := strings.TrimSpace(bars.Last().Find(".player-name").Text()); name != tc.bottomName {
				t.Errorf("bottom player = %q, want %q", name, tc.bottomName)
			}
			if got, want := strings.TrimSpace(testid(doc, "status").Text()), text(t, "en", tc.wantStatusMatch); got != want {
				t.Errorf("status = %q, want %q", got, want)
			}
			for _, id := range []string{"move-form", "actions"} {
				if n := testid(doc, id).Length(); (n == 1) != tc.player {
					t.Errorf("%d %s, want player=%v", n, id, tc.player)
				}
			}
			if got := board.AttrOr("data-interactive", ""); got != tc.interactive {
				t.Errorf("data-interactive = %q, want %q", got, tc.interactive)
			}
			if got := board.AttrOr("data-color", ""); got != tc.wantColor {
				t.Errorf("data-color = %q, want %q", got, tc.wantColor)
			}
			if tc.player {
				if ply := testid(doc, "move-ply").AttrOr("value", ""); ply != "1" {
					t.Errorf("move form's ply = %q, want 1", ply)
				}
			} else if doc.Find(`form[action*="/resign"], form[action*="/draw"], form[action*="/leave"]`).Length() != 0 {
				t.Error("a spectator sees a player's action")
			}
			if e5 := doc.Find(`[data-testid="move"]`).First().Text(); strings.TrimSpace(e5) != "e4" {
				t.Errorf("first move listed = %q, want e4", e5)
			}
			if calls := e.games.changes(); len(calls) != 0 {
				t.Errorf("GET changed state: %+v", calls)
			}
		})
	}
}

func TestGamePageUnknownGame(t *testing.T) {
	e := newGameEnv(t)
	for _, target := range []string{"/games/7", "/games/x", "/games/0", "/games/-1"} {
		if resp := e.do(t, gameReq{target: target, as: &ayse}); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", target, resp.StatusCode)
		}
	}
}

func TestInviteLinkOnlyForCreator(t *testing.T) {
	// A waiting private game: ayse created it with White.
	control, _ := clock.ParseControl("3+2")
	g := game.New(game.Options{White: game.Human(ayse.ID), Control: control}, time.Now())
	snap := snapshotOfGame(testGameID, play.Private, g, time.Now())
	snap.InviteToken = "secret"
	e := newGameEnv(t, snap)
	doc := parse(t, e.do(t, gameReq{target: "/games/7", as: &ayse}))
	if link := testid(doc, "invite-link").Text(); link != "http://example.com/invite/secret" {
		t.Errorf("invite link = %q", link)
	}
	doc = parse(t, e.do(t, gameReq{target: "/games/7", as: &cemil}))
	if testid(doc, "invite-link").Length() != 0 || strings.Contains(doc.Text(), "secret") {
		t.Error("a spectator sees the invite link")
	}
}

func TestInviteGetDoesNotJoin(t *testing.T) {
	control, _ := clock.ParseControl("3+2")
	g := game.New(game.Options{White: game.Human(ayse.ID), Control: control}, time.Now())
	snap := snapshotOfGame(testGameID, play.Private, g, time.Now())
	snap.InviteToken = "secret"
	e := newGameEnv(t, snap)
	resp := e.do(t, gameReq{target: "/invite/secret", as: &bora})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET invite = %d", resp.StatusCode)
	}
	doc := parse(t, resp)
	if calls := e.games.changes(); len(calls) != 0 {
		t.Errorf("GET invite changed state: %+v", calls)
	}
	form := testid(doc, "invite-join").Closest("form")
	if m, a := form.AttrOr("method", ""), form.AttrOr("action", ""); m != "post" || a != "/invite/secret" {
		t.Errorf("join form: method %q action %q, want post /invite/secret", m, a)
	}

	e.games.joinID = testGameID
	resp = e.do(t, gameReq{method: http.MethodPost, target: "/invite/secret", as: &bora})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/games/7" {
		t.Errorf("POST invite = %d to %q, want 303 to /games/7", resp.StatusCode, resp.Header.Get("Location"))
	}
	want := []call{{method: "JoinPrivateGame", user: bora.ID, text: "secret"}}
	if got := e.games.changes(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("calls = %+v, want %+v", got, want)
	}
}

func TestInviteJoinErrors(t *testing.T) {
	tests := []struct {
		name     string
		id       int64
		err      error
		status   int
		location string
	}{
		// Someone else took the seat: the latecomer watches.
		{"seat taken", testGameID, fmt.Errorf("play: %w", game.ErrSeatTaken), http.StatusSeeOther, "/games/7"},
		{"unknown token", 0, fmt.Errorf("play: invite: %w", play.ErrNotFound), http.StatusNotFound, ""},
		{"seat taken, no game", 0, game.ErrSeatTaken, http.StatusConflict, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newGameEnv(t, testSnapshot(t, time.Now()))
			e.games.joinID = tc.id
			e.games.setErr("JoinPrivateGame", tc.err)
			resp := e.do(t, gameReq{method: http.MethodPost, target: "/invite/nope", as: &cemil})
			if resp.StatusCode != tc.status || resp.Header.Get("Location") != tc.location {
				t.Errorf("POST invite = %d to %q, want %d to %q", resp.StatusCode, resp.Header.Get("Location"), tc.status, tc.location)
			}
		})
	}
}

func TestGameActions(t *testing.T) {
	tests := []struct {
		path   string
		form   url.Values
		status int // with htmx
		want   *call
	}{
		{"/games/7/resign", nil, http.StatusNoContent, &call{method: "Resign"}},
		{"/games/7/leave", nil, http.StatusNoContent, &call{method: "Leave"}},
		{"/games/7/draw", nil, http.StatusNoContent, &call{method: "OfferDraw"}},
		{"/games/7/draw/answer", url.Values{"accept": {"yes"}}, http.StatusNoContent, &call{method: "AnswerDraw", accept: true}},
		{"/games/7/draw/answer", url.Values{"accept": {"no"}}, http.StatusNoContent, &call{method: "AnswerDraw"}},
		{"/games/7/draw/answer", url.Values{"accept": {"maybe"}}, http.StatusBadRequest, nil},
		{"/games/7/draw/answer", nil, http.StatusBadRequest, nil},
		{"/games/7/rematch", nil, http.StatusNoContent, &call{method: "Rematch"}},
	}
	for _, tc := range tests {
		for _, htmx := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s %v htmx=%v", tc.path, tc.form, htmx), func(t *testing.T) {
				e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4", "e7e5"))
				resp := e.do(t, gameReq{method: http.MethodPost, target: tc.path, as: &ayse, form: tc.form, htmx: htmx})
				status, location := tc.status, ""
				if status == http.StatusNoContent && !htmx {
					status, location = http.StatusSeeOther, "/games/7"
				}
				if resp.StatusCode != status || resp.Header.Get("Location") != location {
					t.Errorf("POST = %d to %q, want %d to %q", resp.StatusCode, resp.Header.Get("Location"), status, location)
				}
				var want []call
				if tc.want != nil {
					c := *tc.want
					c.game, c.user = testGameID, ayse.ID
					want = append(want, c)
				}
				if got := e.games.changes(); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("calls = %+v, want %+v", got, want)
				}
			})
		}
	}
}

func TestGameActionErrors(t *testing.T) {
	tests := []struct {
		method string
		path   string
		err    error
		status int
	}{
		{"Resign", "/games/7/resign", fmt.Errorf("play: %w", game.ErrGameOver), http.StatusConflict},
		{"OfferDraw", "/games/7/draw", game.ErrDrawNotAllowed, http.StatusConflict},
		{"Leave", "/games/7/leave", play.ErrNotPlayer, http.StatusForbidden},
		{"Rematch", "/games/7/rematch", play.ErrNotFound, http.StatusNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.method, func(t *testing.T) {
			e := newGameEnv(t, testSnapshot(t, time.Now()))
			e.games.setErr(tc.method, tc.err)
			resp := e.do(t, gameReq{method: http.MethodPost, target: tc.path, as: &cemil})
			if resp.StatusCode != tc.status {
				t.Errorf("POST %s = %d, want %d", tc.path, resp.StatusCode, tc.status)
			}
		})
	}
}

func TestGameRematchOpensNewGame(t *testing.T) {
	e := newGameEnv(t, testSnapshot(t, time.Now()))
	e.games.newID = 8
	resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/rematch", as: &ayse, htmx: true})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/games/8" {
		t.Errorf("rematch = %d to %q, want 303 to /games/8", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestGamePGNDownload(t *testing.T) {
	e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4", "e7e5"))
	e.games.pgn = "[Event \"Casual game\"]\n\n1. e4 {[%clk 0:03:01]} e5 *\n"
	resp := e.do(t, gameReq{target: "/games/7/pgn", as: &cemil})
	body := readBody(t, resp)
	if resp.StatusCode != http.StatusOK || body != e.games.pgn {
		t.Fatalf("GET pgn = %d %q", resp.StatusCode, body)
	}
	for k, want := range map[string]string{
		"Content-Type":        "application/x-chess-pgn; charset=utf-8",
		"Content-Disposition": `attachment; filename="satranc-7.pgn"`,
		"Cache-Control":       "no-store",
	} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	o := e.games.pgnOpt
	if o.White != "ayse" || o.Black != "bora" || o.Letters != chess.English {
		t.Errorf("PGN options = %+v, want ayse-bora in English letters", o)
	}
	e.do(t, gameReq{target: "/games/7/pgn?letters=tr", as: &cemil})
	if e.games.pgnOpt.Letters != chess.Turkish {
		t.Error("?letters=tr did not ask for Turkish letters")
	}
	if calls := e.games.changes(); len(calls) != 0 {
		t.Errorf("PGN download changed state: %+v", calls)
	}
}

// TestGamePGNBotNames: the PGN names a bot as the table does: by its
// ordinary player name at a public table, where bots are not labelled
// (SPEC section 6), and as the computer in a practice game.
func TestGamePGNBotNames(t *testing.T) {
	for _, tc := range []struct {
		kind play.Kind
		want string
	}{{play.Quick, account.PublicBotName(testGameID, chess.Black)}, {play.Lounge, account.PublicBotName(testGameID, chess.Black)}, {play.Practice, ""}} {
		now := time.Now()
		g := game.New(game.Options{White: game.Human(ayse.ID), Black: game.Bot(game.Medium), Control: clock.MustParse("5+0")}, now)
		e := newGameEnv(t, snapshotOfGame(testGameID, tc.kind, g, now))
		if resp := e.do(t, gameReq{target: "/games/7/pgn", as: &ayse}); resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: GET pgn = %d", tc.kind, resp.StatusCode)
		}
		if o := e.games.pgnOpt; o.White != "ayse" || o.Black != tc.want {
			t.Errorf("%s game: PGN names %q and %q, want ayse and %q", tc.kind, o.White, o.Black, tc.want)
		}
	}
}

func TestGameCreate(t *testing.T) {
	tests := []struct {
		path   string
		form   url.Values
		status int
		want   string // the call's text
	}{
		{"/games/private", url.Values{"control": {"3+2"}}, http.StatusSeeOther, "3+2"},
		{"/games/private", url.Values{"control": {"untimed"}}, http.StatusBadRequest, ""},
		{"/games/practice", url.Values{"level": {"easy"}, "control": {"5+0"}, "color": {"black"}}, http.StatusSeeOther, "x"},
		{"/games/practice", url.Values{"level": {"grandmaster"}, "control": {"5+0"}, "color": {"black"}}, http.StatusUnprocessableEntity, ""},
	}
	for _, tc := range tests {
		t.Run(tc.path+" "+tc.form.Encode(), func(t *testing.T) {
			e := newGameEnv(t)
			resp := e.do(t, gameReq{method: http.MethodPost, target: tc.path, as: &ayse, form: tc.form})
			if resp.StatusCode != tc.status {
				t.Fatalf("POST %s = %d, want %d", tc.path, resp.StatusCode, tc.status)
			}
			calls := e.games.changes()
			if tc.want == "" {
				if len(calls) != 0 {
					t.Errorf("calls = %+v, want none", calls)
				}
				return
			}
			if len(calls) != 1 || calls[0].user != ayse.ID {
				t.Errorf("calls = %+v, want one by ayse", calls)
			}
			if loc := resp.Header.Get("Location"); loc != "/games/7" {
				t.Errorf("Location = %q, want /games/7", loc)
			}
		})
	}
}

// TestGameRoutesNeedLogin: starting and playing need a member; watching
// (the GETs of /games/{id}) does not (TestGuestWatchesGame).
func TestGameRoutesNeedLogin(t *testing.T) {
	e := newGameEnv(t, testSnapshot(t, time.Now()))
	for _, rq := range []gameReq{
		{target: "/play"},
		{method: http.MethodPost, target: "/invite/secret"},
		{method: http.MethodPost, target: "/invite/secret/decline"},
		{method: http.MethodPost, target: "/games/private", form: url.Values{"control": {"3+2"}}},
		{method: http.MethodPost, target: "/games/practice", form: url.Values{"level": {"easy"}, "control": {"3+2"}, "color": {"white"}}},
		{method: http.MethodPost, target: "/games/7/moves", form: url.Values{"uci": {"e2e4"}, "ply": {"0"}}},
		{method: http.MethodPost, target: "/games/7/resign"},
		{method: http.MethodPost, target: "/games/7/leave"},
		{method: http.MethodPost, target: "/games/7/draw"},
		{method: http.MethodPost, target: "/games/7/draw/answer", form: url.Values{"accept": {"yes"}}},
		{method: http.MethodPost, target: "/games/7/rematch"},
	} {
		resp := e.do(t, rq)
		loc := resp.Header.Get("Location")
		want := "/login"
		if rq.method == "" {
			want += "?" + url.Values{"next": {rq.target}}.Encode()
		}
		if resp.StatusCode != http.StatusSeeOther || loc != want {
			t.Errorf("%s %s as a guest = %d to %q, want 303 to %q", rq.method, rq.target, resp.StatusCode, loc, want)
		}
	}
	if calls := e.games.changes(); len(calls) != 0 {
		t.Errorf("a guest reached the games: %+v", calls)
	}
}
