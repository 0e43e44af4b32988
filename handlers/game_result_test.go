package handlers

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"go.uber.org/goleak"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// TestResultPanelFromTheDatabase: a rated Quick Play game ends; its end
// is settled before it is published (an Ended event finds the figures in
// the database already), and each player's result panel shows the rating
// change the database holds, the experience and a new Quick Play game at
// the same control; a spectator's panel has the result only.
func TestResultPanelFromTheDatabase(t *testing.T) {
	e := newStackEnv(t, looseLimit)
	a, b, c := e.player(t, "ayse"), e.player(t, "bora"), e.player(t, "cemil")
	ctx := context.Background()
	id, _, err := e.games.CreatePublicGame(ctx, play.Quick, game.Human(a.ID), game.Human(b.ID), clock.MustParse("5+0"), 0)
	if err != nil {
		t.Fatal(err)
	}
	sub := e.games.Subscribe(id)
	defer sub.Close()
	for ply, text := range []string{"e4", "e5", "Nf3", "Nc6"} {
		mover := a
		if ply%2 == 1 {
			mover = b
		}
		if err := e.games.Move(ctx, id, mover.ID, text, chess.English, ply); err != nil {
			t.Fatalf("move %s: %v", text, err)
		}
	}
	if err := e.games.Resign(ctx, id, a.ID); err != nil {
		t.Fatal(err)
	}
	for ended := false; !ended; {
		select {
		case ev := <-sub.C():
			_, ended = ev.Payload.(game.Ended)
		case <-time.After(sseTimeout):
			t.Fatal("no Ended event")
		}
	}
	if st, err := e.store.GameSettlement(ctx, id, a.ID); err != nil || !st.Settled || !st.Rated {
		t.Fatalf("at the Ended event the settlement is %+v, %v; want it settled and rated", st, err)
	}

	db, err := sql.Open("sqlite3", "file:"+e.dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	page := func(p player, target string) *goquery.Document {
		t.Helper()
		resp := e.do(t, request{target: target, cookies: p.cookies()})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d", target, resp.StatusCode)
		}
		return parse(t, resp)
	}
	for _, tc := range []struct {
		who      player
		headline string
		xp       string
	}{{a, "game.result_panel.lost", "10"}, {b, "game.result_panel.won", "15"}} {
		var before, after int
		if err := db.QueryRow("SELECT rating_before, rating_after FROM rating_changes WHERE game_id = ? AND user_id = ?", id, tc.who.ID).Scan(&before, &after); err != nil {
			t.Fatal(err)
		}
		doc := page(tc.who, fmt.Sprintf("/games/%d", id))
		if got := testid(doc, "result-panel").AttrOr("data-headline", ""); got != tc.headline {
			t.Errorf("%s: headline %q, want %q", tc.who.Name, got, tc.headline)
		}
		r := testid(doc, "result-rating")
		if got, want := r.AttrOr("data-before", "")+" "+r.AttrOr("data-after", ""), fmt.Sprint(before, " ", after); got != want {
			t.Errorf("%s: panel rating %q, database %q", tc.who.Name, got, want)
		}
		if got := testid(doc, "result-xp").AttrOr("data-xp", ""); got != tc.xp {
			t.Errorf("%s: XP %q, want %s", tc.who.Name, got, tc.xp)
		}
		form := testid(doc, "result-new-game-form")
		if action, control := form.AttrOr("action", ""), form.Find(`input[name="control"]`).AttrOr("value", ""); action != "/lobby/join" || control != "5+0" {
			t.Errorf("%s: new game %s %s, want /lobby/join 5+0", tc.who.Name, action, control)
		}
		// The figures alone, as the panel asks for them when it lacks them.
		resp := e.do(t, request{target: fmt.Sprintf("/games/%d/result", id), cookies: tc.who.cookies(), header: map[string]string{"HX-Request": "true"}})
		if frag := parse(t, resp); testid(frag, "result-rating").AttrOr("data-after", "") != fmt.Sprint(after) {
			t.Errorf("%s: GET /result = %d without the rating", tc.who.Name, resp.StatusCode)
		}
	}
	doc := page(c, fmt.Sprintf("/games/%d", id))
	if got := testid(doc, "result-panel").AttrOr("data-headline", ""); got != "game.result_panel.black_wins" {
		t.Errorf("spectator: headline %q", got)
	}
	for _, leak := range []string{"result-figures", "result-new-game", "rematch"} {
		if testid(doc, leak).Length() != 0 {
			t.Errorf("spectator's panel has %s", leak)
		}
	}
	if resp := e.do(t, request{target: fmt.Sprintf("/games/%d/result", id), cookies: a.cookies()}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("GET /result without htmx = %d, want a redirect to the game", resp.StatusCode)
	}
}

// TestRematchSendsPlayersThere: when a rematch appears during a player's
// stream, the page gets an EventRematch with the link to follow; a
// spectator does not, nor a page opened after it (which shows the link).
func TestRematchSendsPlayersThere(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	over := testSnapshot(t, time.Now(), "e2e4", "e7e5", "g1f3", "b8c6")
	over.Status, over.Outcome = game.Finished, game.Outcome{Result: game.BlackWins, Reason: game.Resignation, Side: chess.White}
	games := newFakeGames(over)
	srv := newEventsServer(t, games)
	defer srv.Close()

	player, spectator := openStream(t, srv, ayse), openStream(t, srv, cemil)
	player.next(t)
	spectator.next(t)
	over.RematchID = 99
	games.setSnap(over)
	games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: play.RematchReady{Stamp: game.Stamp{Ply: 4}, NewGameID: 99}})
	ev := player.nextWhere(t, func(ev sseEvent) bool { return ev.name == views.EventRematch })
	if !strings.Contains(ev.data, `href="/games/99"`) || !strings.Contains(ev.data, "data-navigate") {
		t.Errorf("rematch event %q, want a link to /games/99 to follow", ev.data)
	}
	if ev := spectator.nextWhere(t, func(ev sseEvent) bool { return ev.name != "" }); ev.name != views.EventGame {
		t.Errorf("the spectator got %q", ev.name)
	}

	later := openStream(t, srv, ayse)
	first := later.next(t)
	if !strings.Contains(first.data, `data-testid="rematch-go"`) {
		t.Error("a page opened after the rematch has no link to it")
	}
	games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: play.ChatPosted{Stamp: game.Stamp{Ply: 4}}})
	if ev := later.nextWhere(t, func(ev sseEvent) bool { return ev.name != "" }); ev.name != views.EventGame {
		t.Errorf("a page opened after the rematch got %q", ev.name)
	}
	for _, s := range []*stream{player, spectator, later} {
		s.close(t)
	}
	srv.Close()
	srv.Client().Transport.(*http.Transport).CloseIdleConnections()
}
