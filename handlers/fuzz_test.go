package handlers

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"satranc/engine/chat"
	"satranc/engine/game"
)

// The fuzzers post random bodies to the move and chat endpoints of the
// whole site on a real store (stackEnv), as either player or a spectator,
// with and without htmx, at the game or at games that do not exist, and
// check what comes back: never a 500 (a panic
// becomes one in recoverPanics), only the statuses the endpoint means to
// give, and the game changed exactly as the answer says: one move or one
// chat line for an accepted request, nothing at all for a refused one.
//
//	go test -run '^$' -fuzz FuzzGameMove -fuzztime 3m ./handlers

// fuzzTable is a game between two players and a spectator, renewed when
// it ends (the fuzzer may mate, a clock may fall) or its chat is flooded.
type fuzzTable struct {
	e      *stackEnv
	id     int64
	people [3]player // White, Black, a spectator
	a, b   player    // the players, in the order they sat down
}

func newFuzzTable(f *testing.F) *fuzzTable {
	// No move limit: the fuzzer is one player sending thousands of moves.
	e := newStackEnv(f, RateLimit{Every: time.Nanosecond, Burst: 1 << 20})
	ft := &fuzzTable{e: e, a: e.player(f, "ayse"), b: e.player(f, "bora")}
	ft.people[2] = e.player(f, "cemil")
	ft.renew(f)
	return ft
}

// renew opens a new game between the two players.
func (ft *fuzzTable) renew(tb testing.TB) {
	ft.id, ft.people[0], ft.people[1] = ft.e.privateGame(tb, ft.a, ft.b)
}

// otherGames are the games a request may be sent to instead of the
// table's: none of them exists.
var otherGames = []string{"999999", "0", "-1", "x", "1e3", "99999999999999999999"}

// target is the path of endpoint at the table's game (where 0), or at one
// of otherGames.
func (ft *fuzzTable) target(where uint8, endpoint string) string {
	id := fmt.Sprint(ft.id)
	if where > 0 {
		id = otherGames[int(where-1)%len(otherGames)]
	}
	return "/games/" + id + "/" + endpoint
}

// post sends body as who (0 White, 1 Black, 2 a spectator) and returns the
// response's status and body.
func (ft *fuzzTable) post(t *testing.T, target, body string, who uint8, htmx bool) (int, string) {
	resp := ft.e.post(target, body, ft.people[who%3], htmx)
	text := readBody(t, resp)
	if resp.StatusCode >= 500 {
		t.Fatalf("POST %s %q: %d: %.500s", target, body, resp.StatusCode, text)
	}
	return resp.StatusCode, text
}

// unchanged checks that a refused request left the game as it was; only a
// clock falling meanwhile may have ended it.
func (ft *fuzzTable) unchanged(t *testing.T, what string, before gameState) {
	after := ft.e.state(t, ft.id)
	if after.Status != before.Status {
		if r := ft.e.snapshot(t, ft.id).Outcome.Reason; r == game.Timeout || r == game.TimeoutVsInsufficient {
			after.Status = before.Status
		}
	}
	if after != before {
		t.Fatalf("%s changed the game: %+v, was %+v", what, after, before)
	}
}

// The answers a form posted at a game may get.
var (
	accepted = []int{http.StatusNoContent, http.StatusSeeOther}
	refused  = []int{http.StatusBadRequest, http.StatusForbidden, http.StatusNotFound, http.StatusConflict,
		http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity, http.StatusTooManyRequests}
)

func FuzzGameMove(f *testing.F) {
	for _, seed := range []string{
		"move=e4&ply=0", "uci=e2e4&ply=0", "uci=e7e5&ply=1", "move=Nf3&ply=0", "move=Af3&ply=0", "move=O-O&ply=0",
		"move=e8%3DQ&ply=0", "uci=e7e8q&ply=0", "move=e4&ply=-1", "move=e4&ply=99999999999999999999", "move=&ply=0",
		"move=%zz", "ply=0", "", "move=e4&move=d4&ply=0", "uci=a1a1&ply=0", "move=e4%00&ply=0",
		"move=" + strings.Repeat("K", 1000) + "&ply=0", "move=" + url.QueryEscape(hostile[0]) + "&ply=0",
	} {
		f.Add(seed, uint8(0), true, uint8(0))
	}
	f.Add("move=e4&ply=0", uint8(1), false, uint8(0))
	f.Add("move=e4&ply=0", uint8(2), true, uint8(0))
	f.Add("move=e4&ply=0", uint8(0), true, uint8(1))
	f.Add("move=e4&ply=0", uint8(0), false, uint8(4))
	ft := newFuzzTable(f)
	f.Fuzz(func(t *testing.T, body string, who uint8, htmx bool, where uint8) {
		if snap := ft.e.snapshot(t, ft.id); snap.Status != game.Active {
			ft.renew(t)
		}
		before := ft.e.state(t, ft.id)
		status, _ := ft.post(t, ft.target(where, "moves"), body, who, htmx)
		switch {
		case slices.Contains(accepted, status) && where == 0:
			after := ft.e.state(t, ft.id)
			if after.Ply != before.Ply+1 || after.StoredMoves != before.StoredMoves+1 || after.Chat != before.Chat {
				t.Fatalf("an accepted move %q: %+v, was %+v", body, after, before)
			}
			if side := who % 3; side == 2 || int(side) != before.Ply%2 {
				t.Fatalf("a move by %d accepted at ply %d", side, before.Ply)
			}
		case slices.Contains(refused, status):
			ft.unchanged(t, fmt.Sprintf("a refused move %q (%d)", body, status), before)
		default:
			t.Fatalf("a move %q: status %d", body, status)
		}
	})
}

func FuzzGameChat(f *testing.F) {
	for _, seed := range []string{
		"text=hello", "text=merhaba+%C3%A7ay", "text=", "text=+++", "text=a%00b", "text=%FF%FE", "text=%zz",
		"text=" + strings.Repeat("a", chat.MaxRunes), "text=" + strings.Repeat("a", chat.MaxRunes+1),
		"text=" + strings.Repeat("%C3%A7", chat.MaxRunes), "text=a&text=b", "", "other=x",
		"text=" + url.QueryEscape(hostile[0]), "text=" + url.QueryEscape(hostile[7]), "text=%E2%80%AEevil",
	} {
		f.Add(seed, uint8(0), true, uint8(0))
	}
	f.Add("text=hi", uint8(1), false, uint8(0))
	f.Add("text=hi", uint8(2), true, uint8(0))
	f.Add("text=hi", uint8(0), true, uint8(1))
	ft := newFuzzTable(f)
	f.Fuzz(func(t *testing.T, body string, who uint8, htmx bool, where uint8) {
		before := ft.e.state(t, ft.id)
		status, _ := ft.post(t, ft.target(where, "chat"), body, who, htmx)
		switch {
		case slices.Contains(accepted, status) && where == 0:
			after := ft.e.state(t, ft.id)
			if after.Chat != before.Chat+1 || after.Ply != before.Ply || after.StoredMoves != before.StoredMoves {
				t.Fatalf("an accepted chat line %q: %+v, was %+v", body, after, before)
			}
			if who%3 == 2 {
				t.Fatal("a spectator's chat line accepted")
			}
			form, err := url.ParseQuery(body)
			want, cerr := chat.Clean(form.Get("text"))
			if err != nil || cerr != nil {
				t.Fatalf("accepted %q: %v, %v", body, err, cerr)
			}
			msgs, err := ft.e.store.ChatMessages(t.Context(), ft.id)
			if err != nil || msgs[len(msgs)-1].Body != want {
				t.Fatalf("stored %q for %q, want %q (%v)", msgs[len(msgs)-1].Body, body, want, err)
			}
		case slices.Contains(refused, status):
			ft.unchanged(t, fmt.Sprintf("a refused chat line %q (%d)", body, status), before)
			if status == http.StatusTooManyRequests {
				ft.renew(t) // the flood limit is per game: go on at a new table
			}
		default:
			t.Fatalf("a chat line %q: status %d", body, status)
		}
	})
}

// FuzzAnyRequest sends the whole site random requests: a method, a path
// (any bytes, escaped), a form body, as the administrator, a member or a
// guest. No answer may be a server error. Event streams are left out: they
// last until the client goes.
func FuzzAnyRequest(f *testing.F) {
	s := newFuzzSite(f)
	for _, seed := range []string{"/", "/games/1", "/games/1/moves", "/games/1/chat", "/players/bora", "/replay/1",
		"/admin", "/admin/users/bora", "/admin/games/1/void", "/tournaments/daily/2026-11-02", "/invite/x",
		"/lobby/join", "/settings", "/static/css/app.css", "/static/../go.mod", "/%2e%2e/", "//x", "/games/-1"} {
		f.Add(uint8(0), seed, "", uint8(0))
		f.Add(uint8(1), seed, "text=hi&move=e5&ply=1&control=3%2B0&on=on&amount=5&reason=x", uint8(1))
	}
	methods := []string{http.MethodGet, http.MethodPost, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions}
	f.Fuzz(func(t *testing.T, method uint8, path, body string, who uint8) {
		target := "/" + strings.TrimLeft(escapePath(path), "/")
		if strings.Contains(target, "events") {
			t.Skip("event streams last until the client goes")
		}
		req := httptest.NewRequest(methods[int(method)%len(methods)], "http://example.com"+target, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if c := s.people[who%3].cookie; c != nil {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		s.e.h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s %q: %d: %.300s", req.Method, target, body, rec.Code, rec.Body.String())
		}
	})
}

// escapePath makes any string a valid request path, keeping its slashes.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		parts[i] = url.PathEscape(part)
	}
	return strings.Join(parts, "/")
}

// fuzzSite is the whole site with an administrator, a member with a game
// against them, and a guest.
type fuzzSite struct {
	e      *stackEnv
	people [3]player // the administrator, a member, a guest
}

func newFuzzSite(f *testing.F) *fuzzSite {
	e := newStackEnv(f, RateLimit{Every: time.Nanosecond, Burst: 1 << 20})
	s := &fuzzSite{e: e}
	s.people[0], s.people[1] = e.player(f, "ayse"), e.player(f, "bora")
	e.privateGame(f, s.people[0], s.people[1])
	return s
}
