package handlers

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"satranc/engine/chat"
	"satranc/engine/chess"
)

// The attack tests send the whole site (stackEnv: a real store) requests
// that must be refused, and check both the answer (status and a clear
// message) and that nothing changed.

// moveForm is the move form's fields: a move as typed and the ply it is for.
func moveForm(move string, ply int) url.Values {
	return url.Values{"move": {move}, "ply": {strconv.Itoa(ply)}}
}

// expectRefused checks that resp has status and shows the English text of
// message id.
func expectRefused(t *testing.T, what string, resp *http.Response, status int, id string) {
	t.Helper()
	body := readBody(t, resp)
	if resp.StatusCode != status {
		t.Errorf("%s: status %d, want %d: %.300s", what, resp.StatusCode, status, body)
		return
	}
	if want := text(t, "en", id); !strings.Contains(body, want) {
		t.Errorf("%s: the answer lacks %q: %.300s", what, want, body)
	}
}

// TestMovesRefused: every move a player must not make, and a chat line
// from someone not at the table, is refused with its message, as htmx and
// as a plain form, and the game stays as it was.
func TestMovesRefused(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	id, white, black := e.privateGame(t, e.player(t, "ayse"), e.player(t, "bora"))
	cemil := e.player(t, "cemil")
	path := fmt.Sprintf("/games/%d/moves", id)
	htmx := map[string]string{"HX-Request": "true"}

	if resp := e.do(t, request{method: http.MethodPost, target: path, form: moveForm("e4", 0), cookies: white.cookies(), header: htmx}); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("White's first move: %d", resp.StatusCode)
	}
	before := e.state(t, id)
	if before.Ply != 1 || before.StoredMoves != 1 {
		t.Fatalf("after one move: %+v", before)
	}

	tests := []struct {
		name   string
		as     player
		form   url.Values
		header map[string]string
		status int
		msg    string
	}{
		{"the same move twice", white, moveForm("e4", 0), htmx, http.StatusConflict, "error.game.stale"},
		{"out of turn", white, moveForm("d4", 1), htmx, http.StatusConflict, "error.game.not_your_turn"},
		{"the other player's piece", black, moveForm("d4", 1), htmx, http.StatusUnprocessableEntity, "error.game.illegal"},
		{"a stale ply", black, moveForm("e5", 0), htmx, http.StatusConflict, "error.game.stale"},
		{"a ply from the future", black, moveForm("e5", 7), htmx, http.StatusConflict, "error.game.stale"},
		{"someone else's game", cemil, moveForm("e5", 1), htmx, http.StatusForbidden, "error.game.not_player"},
		{"someone else's game, a plain form", cemil, moveForm("e5", 1), nil, http.StatusForbidden, "error.game.not_player"},
		{"no ply", black, url.Values{"move": {"e5"}}, htmx, http.StatusBadRequest, "error.bad_request"},
		{"gibberish", black, moveForm("'; DROP TABLE games; --", 1), htmx, http.StatusUnprocessableEntity, "error.game.unreadable"},
		{"a plain form out of turn", white, moveForm("d4", 1), nil, http.StatusConflict, "error.game.not_your_turn"},
		{"from another site", black, moveForm("e5", 1), map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden, "error.cross_origin"},
		{"from another origin", black, moveForm("e5", 1), map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden, "error.cross_origin"},
	}
	for _, tc := range tests {
		resp := e.do(t, request{method: http.MethodPost, target: path, form: tc.form, cookies: tc.as.cookies(), header: tc.header})
		expectRefused(t, tc.name, resp, tc.status, tc.msg)
		if after := e.state(t, id); after != before {
			t.Errorf("%s changed the game: %+v, was %+v", tc.name, after, before)
		}
	}

	// Only the players chat at a table.
	resp := e.do(t, request{method: http.MethodPost, target: fmt.Sprintf("/games/%d/chat", id), form: chatForm("hello"), cookies: cemil.cookies(), header: htmx})
	expectRefused(t, "chat at someone else's table", resp, http.StatusForbidden, "error.game.not_player")
	resp = e.do(t, request{method: http.MethodPost, target: "/games/999/chat", form: chatForm("hello"), cookies: cemil.cookies(), header: htmx})
	expectRefused(t, "chat at no table", resp, http.StatusNotFound, "error.not_found")
	if after := e.state(t, id); after != before {
		t.Errorf("a refused chat line changed the game: %+v, was %+v", after, before)
	}

	// A finished game takes no more moves.
	if resp := e.do(t, request{method: http.MethodPost, target: fmt.Sprintf("/games/%d/resign", id), cookies: white.cookies()}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("resign: %d", resp.StatusCode)
	}
	over := e.state(t, id)
	resp = e.do(t, request{method: http.MethodPost, target: path, form: moveForm("e5", 1), cookies: black.cookies(), header: htmx})
	expectRefused(t, "a move after the end", resp, http.StatusConflict, "error.game.over")
	if after := e.state(t, id); after != over {
		t.Errorf("a move after the end changed the game: %+v, was %+v", after, over)
	}
}

// TestOversizedBodiesRefused: a POST body over maxFormBytes is refused
// with 413 before any handler reads it, whatever the route and the body's
// type, and even where the action reads no form.
func TestOversizedBodiesRefused(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	id, white, _ := e.privateGame(t, e.player(t, "ayse"), e.player(t, "bora"))
	before := e.state(t, id)
	big := strings.Repeat("a", maxFormBytes)
	for _, rq := range []request{
		{target: fmt.Sprintf("/games/%d/moves", id), form: url.Values{"move": {"e4"}, "ply": {"0"}, "pad": {big}}, cookies: white.cookies()},
		{target: fmt.Sprintf("/games/%d/chat", id), form: url.Values{"text": {big}}, cookies: white.cookies()},
		{target: "/signup", form: url.Values{"username": {"mallory"}, "password": {big}}},
		{target: "/lang", form: url.Values{"lang": {"tr"}, "next": {"/" + big}}},
	} {
		rq.method = http.MethodPost
		expectRefused(t, rq.target, e.do(t, rq), http.StatusRequestEntityTooLarge, "error.too_large")
	}
	// Whatever the body's type, even where the action reads no form, and
	// without a length ahead (chunked).
	for _, ct := range []string{"multipart/form-data; boundary=xyz", "text/plain", "application/json", ""} {
		for _, chunked := range []bool{false, true} {
			body := "--xyz\r\nContent-Disposition: form-data; name=\"pad\"\r\n\r\n" + big + "\r\n--xyz--\r\n"
			req := httptest.NewRequest(http.MethodPost, fmt.Sprintf("/games/%d/resign", id), strings.NewReader(body))
			if chunked {
				req.ContentLength = -1
			}
			if ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			req.AddCookie(white.cookie)
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, req)
			expectRefused(t, fmt.Sprintf("an oversized %q body (chunked %v)", ct, chunked), rec.Result(), http.StatusRequestEntityTooLarge, "error.too_large")
		}
	}
	if after := e.state(t, id); after != before {
		t.Errorf("oversized requests changed the game: %+v, was %+v", after, before)
	}
	if _, err := e.store.UserByName(context.Background(), "mallory"); err == nil {
		t.Error("an oversized sign-up created the account")
	}
	// Just under the limit is fine: the chat refuses the text itself.
	form := url.Values{"text": {"hi"}}
	form.Set("pad", strings.Repeat("a", maxFormBytes-len(form.Encode())-len("&pad=")))
	resp := e.do(t, request{method: http.MethodPost, target: fmt.Sprintf("/games/%d/chat", id), form: form, cookies: white.cookies(), header: map[string]string{"HX-Request": "true"}})
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("a body of exactly %d bytes: %d, want 204", maxFormBytes, resp.StatusCode)
	}
	before = e.state(t, id)
	// A body that is no form at all.
	resp = e.post(fmt.Sprintf("/games/%d/chat", id), "text=%zz&%%", white, true)
	expectRefused(t, "a malformed body", resp, http.StatusBadRequest, "error.bad_request")
	if after := e.state(t, id); after != before {
		t.Errorf("a malformed body changed the game: %+v, was %+v", after, before)
	}
}

// TestFloodsRefused: moves and chat lines beyond the limits are refused
// with 429, a Retry-After and a message, and change nothing.
func TestFloodsRefused(t *testing.T) {
	e := newStackEnv(t, RateLimit{Every: time.Hour, Burst: 3})
	id, white, black := e.privateGame(t, e.player(t, "ayse"), e.player(t, "bora"))
	path := fmt.Sprintf("/games/%d/moves", id)
	htmx := map[string]string{"HX-Request": "true"}

	// Three attempts, one of them a move, then the limit.
	for _, f := range []url.Values{moveForm("e4", 0), moveForm("e4", 0), moveForm("xx", 1)} {
		e.do(t, request{method: http.MethodPost, target: path, form: f, cookies: white.cookies(), header: htmx})
	}
	before := e.state(t, id)
	if resp := e.do(t, request{method: http.MethodPost, target: path, form: moveForm("e5", 1), cookies: black.cookies(), header: htmx}); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("the other player's move: %d (the limit is per player)", resp.StatusCode)
	}
	before.Ply, before.StoredMoves = before.Ply+1, before.StoredMoves+1
	for _, hd := range []map[string]string{htmx, nil} {
		resp := e.do(t, request{method: http.MethodPost, target: path, form: moveForm("d4", 2), cookies: white.cookies(), header: hd})
		body := readBody(t, resp)
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "Too many attempts") {
			t.Errorf("a move beyond the limit: %d, Retry-After %q: %.300s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
	}
	if after := e.state(t, id); after != before {
		t.Errorf("refused moves changed the game: %+v, want %+v", after, before)
	}

	// The chat: chat.Burst lines, then the limit.
	chatPath := fmt.Sprintf("/games/%d/chat", id)
	for i := range chat.Burst {
		if resp := e.do(t, request{method: http.MethodPost, target: chatPath, form: chatForm(fmt.Sprint("line ", i)), cookies: black.cookies(), header: htmx}); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("chat line %d: %d", i, resp.StatusCode)
		}
	}
	before = e.state(t, id)
	resp := e.do(t, request{method: http.MethodPost, target: chatPath, form: chatForm("one too many"), cookies: black.cookies(), header: htmx})
	if resp.Header.Get("Retry-After") == "" {
		t.Error("a chat flood: no Retry-After")
	}
	expectRefused(t, "a chat flood", resp, http.StatusTooManyRequests, "chat.flood")
	if after := e.state(t, id); after != before {
		t.Errorf("a refused chat line changed the game: %+v, was %+v", after, before)
	}
}

// Texts an attacker types into fields: SQL that would end the statement
// and run another, or match every row, and markup that would run a script.
var hostile = []string{
	`'; DROP TABLE users; --`,
	`" OR "1"="1`,
	`' OR '1'='1' --`,
	`1; DELETE FROM games`,
	`%' OR name LIKE '%`,
	`\'; SELECT * FROM sessions; --`,
	`<script>alert(1)</script>`,
	`"><img src=x onerror=alert(1)>`,
	`</span><b>bold</b>`,
}

// TestHostileTextHarmless sends the hostile texts through every text field
// of the site: each is refused with its form's message or taken as plain
// text, stored as typed and shown escaped; the database stays whole.
func TestHostileTextHarmless(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	ayse, bora := e.player(t, "ayse"), e.player(t, "bora")
	id, white, black := e.privateGame(t, ayse, bora)
	htmx := map[string]string{"HX-Request": "true"}
	ctx := context.Background()

	for i, s := range hostile {
		// A user name allows letters, digits and underscores only.
		resp := e.do(t, request{method: http.MethodPost, target: "/signup", form: url.Values{"username": {s}, "password": {"correct horse"}}})
		expectRefused(t, "sign-up as "+s, resp, http.StatusUnprocessableEntity, "error.username_invalid")
		// Log-in with it as name and as password matches nobody.
		for _, f := range []url.Values{{"username": {s}, "password": {s}}, {"username": {"ayse"}, "password": {s}}} {
			resp = e.do(t, request{method: http.MethodPost, target: "/login", form: f})
			expectRefused(t, "log-in with "+s, resp, http.StatusUnprocessableEntity, "error.bad_credentials")
			if cookie(resp, sessionCookie) != nil {
				t.Errorf("log-in with %q set a session", s)
			}
		}
		// A password may hold anything, and is then needed exactly.
		name := fmt.Sprint("user_", i)
		if resp := e.do(t, request{method: http.MethodPost, target: "/signup", form: url.Values{"username": {name}, "password": {s + " long enough"}}}); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("sign-up with password %q: %d", s, resp.StatusCode)
		}
		if resp := e.do(t, request{method: http.MethodPost, target: "/login", form: url.Values{"username": {name}, "password": {s + " long enough"}}}); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("log-in with password %q: %d", s, resp.StatusCode)
		}
		// Profile, language, the lobby's lounge and time control, moves.
		resp = e.do(t, request{method: http.MethodPost, target: "/profile", form: url.Values{"language": {s}, "gender": {""}}, cookies: ayse.cookies()})
		expectRefused(t, "profile language "+s, resp, http.StatusUnprocessableEntity, "error.profile_invalid")
		resp = e.do(t, request{method: http.MethodPost, target: "/profile", form: url.Values{"language": {"en"}, "gender": {s}}, cookies: ayse.cookies()})
		expectRefused(t, "profile gender "+s, resp, http.StatusUnprocessableEntity, "error.profile_invalid")
		resp = e.do(t, request{method: http.MethodPost, target: "/lang", form: url.Values{"lang": {s}}, cookies: ayse.cookies()})
		expectRefused(t, "language "+s, resp, http.StatusBadRequest, "error.bad_request")
		resp = e.do(t, request{method: http.MethodPost, target: "/lobby/join", form: url.Values{"control": {"3+0"}, "lounge": {s}}, cookies: bora.cookies()})
		expectRefused(t, "lounge "+s, resp, http.StatusUnprocessableEntity, "error.bad_request")
		resp = e.do(t, request{method: http.MethodPost, target: "/lobby/join", form: url.Values{"control": {s}}, cookies: bora.cookies()})
		expectRefused(t, "lobby control "+s, resp, http.StatusUnprocessableEntity, "error.bad_request")
		resp = e.do(t, request{method: http.MethodPost, target: "/games/private", form: url.Values{"control": {s}}, cookies: bora.cookies()})
		expectRefused(t, "private control "+s, resp, http.StatusUnprocessableEntity, "error.bad_request")
		resp = e.do(t, request{method: http.MethodPost, target: fmt.Sprintf("/games/%d/moves", id), form: moveForm(s, 0), cookies: white.cookies(), header: htmx})
		expectRefused(t, "move "+s, resp, http.StatusUnprocessableEntity, "error.game.unreadable")
		// Path parameters: an invite token, a player's name.
		escaped := url.PathEscape(s)
		resp = e.do(t, request{method: http.MethodPost, target: "/invite/" + escaped, cookies: bora.cookies()})
		expectRefused(t, "invite "+s, resp, http.StatusNotFound, "error.not_found")
		resp = e.do(t, request{target: "/players/" + escaped, cookies: bora.cookies()})
		expectRefused(t, "player page "+s, resp, http.StatusNotFound, "error.not_found")
	}

	// The chat takes them all as text, stores them as typed and shows
	// them escaped: no element comes out of a message.
	chat := fmt.Sprintf("/games/%d/chat", id)
	for i, s := range hostile {
		p := white
		if i%2 == 1 {
			p = black // the chat's flood limit is per player
		}
		if resp := e.do(t, request{method: http.MethodPost, target: chat, form: chatForm(s), cookies: p.cookies(), header: htmx}); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("chat %q: %d", s, resp.StatusCode)
		}
	}
	msgs, err := e.store.ChatMessages(ctx, id)
	if err != nil || len(msgs) != len(hostile) {
		t.Fatalf("%d chat lines stored, want %d (%v)", len(msgs), len(hostile), err)
	}
	doc := parse(t, e.do(t, request{target: fmt.Sprintf("/games/%d", id), cookies: black.cookies()}))
	lines := testid(doc, "chat-text")
	for i, s := range hostile {
		if msgs[i].Body != s {
			t.Errorf("stored %q, want %q", msgs[i].Body, s)
		}
		if got := lines.Eq(i).Text(); got != s {
			t.Errorf("shown %q, want %q", got, s)
		}
	}
	if n := lines.Children().Length(); n != 0 {
		t.Errorf("the chat's markup became %d elements", n)
	}
	checkCSPSafe(t, "game page with hostile chat", doc)

	// Nothing else changed: no game but the one, its moves untouched, every
	// account still there.
	for _, name := range []string{"ayse", "bora"} {
		if _, err := e.store.UserByName(ctx, name); err != nil {
			t.Errorf("user %s: %v", name, err)
		}
	}
	e.checkDatabase(t, map[string]int{"users": 2 + len(hostile), "games": 1, "moves": 0, "chat_messages": len(hostile)})
}

// TestOutsidersActionsRefused: every POST route of a game (a route added
// later is covered without being listed here), sent by a member who does
// not play it, with a form a player's request would carry, is refused as
// not theirs, and changes nothing: the game, its pending draw offer, the
// players' chat mutes, the reports, the number of games (a rematch).
func TestOutsidersActionsRefused(t *testing.T) {
	s := newRouteSite(t)
	ctx := context.Background()
	cemil := s.player(t, "cemil")
	snap := s.snapshot(t, s.game)
	// Black answers e4 and White offers a draw: every action a player has
	// is open now, answering the offer too.
	black, white := snap.Black.User, snap.White.User
	if err := s.games.Move(ctx, s.game, black, "e5", chess.English, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.games.OfferDraw(ctx, s.game, white); err != nil {
		t.Fatal(err)
	}
	type seen struct {
		state          gameState
		offer          bool
		muted          [2]bool
		games, reports int
	}
	look := func() seen {
		t.Helper()
		v := seen{state: s.state(t, s.game), offer: s.snapshot(t, s.game).DrawOffer,
			muted: [2]bool{s.games.ChatMuted(s.game, white), s.games.ChatMuted(s.game, black)}}
		v.games, v.reports = s.count(t, "games"), s.count(t, "reports")
		return v
	}
	before := look()
	if !before.offer {
		t.Fatal("no pending draw offer to answer")
	}
	form := url.Values{"move": {"Nf3"}, "uci": {"g1f3"}, "ply": {"2"}, "text": {"hello"}, "accept": {"yes"},
		"kind": {"listen"}, "reason": {"engine"}}
	prefix := fmt.Sprintf("/games/%d/", s.game)
	checked := 0
	for _, path := range siteRoutes(t, s.h, s.values)[http.MethodPost] {
		if !strings.HasPrefix(path, prefix) {
			continue
		}
		checked++
		for _, htmx := range []bool{false, true} {
			rq := request{method: http.MethodPost, target: path, form: form, cookies: cemil.cookies()}
			if htmx {
				rq.header = map[string]string{"HX-Request": "true"}
			}
			expectRefused(t, fmt.Sprintf("an outsider's POST %s (htmx %v)", path, htmx), s.do(t, rq), http.StatusForbidden, "error.game.not_player")
		}
	}
	if checked < 8 {
		t.Fatalf("only %d POST routes under %s", checked, prefix)
	}
	if after := look(); after != before {
		t.Errorf("an outsider's requests changed things: %+v, was %+v", after, before)
	}
}

// TestMarkupInNamesShownEscaped: user names carry no markup (sign-up
// refuses it, TestHostileTextHarmless), but should one be in the database
// all the same (an account from before the rules, a hand-edited row),
// every page shows it as text: every GET route, to the administrator, to
// the member so named and to a guest, with a game between the two in
// progress and one finished; no element comes out of the name.
func TestMarkupInNamesShownEscaped(t *testing.T) {
	const evil = `<i id=pwn>x</i>`
	s := newRouteSite(t)
	finished := finishedGame(t, s)
	db, err := sql.Open("sqlite3", s.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("UPDATE users SET username = ? WHERE id = ?", evil, s.member.ID); err != nil {
		t.Fatal(err)
	}
	// A session keeps its user for a while (the store's sessionCache), so
	// the member logs in again to have their pages read the edited row.
	_, sess, err := s.accounts.LogIn(context.Background(), evil, "correct horse", s.member.cookie.Value)
	if err != nil {
		t.Fatal(err)
	}
	s.member.cookie = &http.Cookie{Name: sessionCookie, Value: sess.Token}
	s.values["name"] = evil
	paths := siteRoutes(t, s.h, s.values)[http.MethodGet]
	paths = append(paths, fmt.Sprintf("/replay/%d", finished), "/admin?q=pwn")
	shown := 0
	for _, path := range paths {
		if strings.HasSuffix(path, "/events") || path == "/metrics" {
			continue // event streams last; the metrics are not a page
		}
		for _, who := range s.visitors() {
			resp := s.do(t, request{target: path, cookies: who.cookies})
			what := who.name + " GET " + path
			if resp.StatusCode >= 500 {
				t.Errorf("%s: %d", what, resp.StatusCode)
				continue
			}
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				continue
			}
			doc := parse(t, resp)
			if doc.Find("#pwn").Length() != 0 {
				t.Errorf("%s: the name became an element", what)
			}
			if strings.Contains(doc.Text(), evil) {
				shown++
			}
		}
	}
	t.Logf("the name shown as text on %d pages", shown)
	if shown < 10 {
		t.Errorf("the name shown on only %d pages: the walk missed them", shown)
	}
}
