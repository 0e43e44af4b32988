package loadtest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/locales"
	"satranc/views"
)

func TestGamePath(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"/games/12", "/games/12", true},
		{"/games/12/", "/games/12", true},
		{"/games/private", "", false}, // the create form answered itself
		{"/games/", "", false},
		{"/games/12/events", "", false},
		{"/lobby", "", false},
		{"/invite/abc", "", false}, // the invite was not taken
	}
	for _, tc := range tests {
		got, ok := gamePath(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("gamePath(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func mustDoc(t *testing.T, html string) page {
	t.Helper()
	p, err := readPage(strings.NewReader(html), true)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPageSamples reads the invite box and the board colour from small
// pages shaped as views/game.templ writes them.
func TestPageSamples(t *testing.T) {
	invite := []struct {
		html    string
		want    string
		wantErr bool
	}{
		{`<textarea readonly data-testid="invite-link">
  https://satranc.example/invite/AB12cd
</textarea>`, "/invite/AB12cd", false},
		{`<textarea data-testid="invite-link">/invite/x</textarea><textarea data-testid="invite-link">/invite/y</textarea>`, "/invite/x", false},
		{`<textarea data-testid="invite-link">  </textarea>`, "", true},
		{`<p>no box</p>`, "", true},
		{`<textarea data-testid="invite-link">http://h/%zz</textarea>`, "", true},
		{`<textarea data-testid="invite-link">https://satranc.example</textarea>`, "", true},
	}
	for _, tc := range invite {
		got, err := invitePath(mustDoc(t, tc.html))
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("invitePath(%s) = %q, %v; want %q, error %v", tc.html, got, err, tc.want, tc.wantErr)
		}
	}
	color := []struct {
		html    string
		want    string
		wantErr bool
	}{
		{`<div class="board" data-color="w" data-ply="0"></div>`, "w", false},
		{`<div data-color="b"></div><div data-color="w"></div>`, "b", false},
		{`<div data-color=""></div>`, "", true},
		{`<div data-color="white"></div>`, "", true},
		{`<div class="board"></div>`, "", true}, // a spectator's board
	}
	stream := []struct{ html, want string }{
		{`<div class="game" sse-connect="/games/1/events?delta=5" data-testid="game"><div data-color="w"></div>`, "/games/1/events?delta=5"},
		{`<div data-testid="game" sse-connect="/games/2/events"></div><div data-color="w"></div>`, "/games/2/events"},
		{`<div sse-connect="/watch/events"></div><div data-color="w"></div>`, ""}, // not the game's
	}
	for _, tc := range stream {
		if got := mustDoc(t, tc.html).stream; got != tc.want {
			t.Errorf("stream of %s = %q, want %q", tc.html, got, tc.want)
		}
	}
	for _, tc := range color {
		got, err := boardColor(mustDoc(t, tc.html))
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("boardColor(%s) = %q, %v; want %q, error %v", tc.html, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestRenderedGamePage reads what the driver needs from the game page as
// the server renders it (views.GamePage): the creator's invite link while
// the game waits, and each player's colour once it runs. A change to the
// page that the driver would not follow fails here, not in a load run.
func TestRenderedGamePage(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	ctx := views.WithLocale(context.Background(),
		views.Locale{Lang: "en", Localizer: i18n.NewLocalizer(locales.Default(), "en"), Here: "/"})
	snap := func(status game.Status) play.Snapshot {
		s := play.Snapshot{ID: 7, Kind: play.Private, Start: chess.StartPosition(), Position: chess.StartPosition(),
			White: game.Human(1), Black: game.Human(2), Control: clock.MustParse(control), Status: status, InviteToken: "tok3n",
			Clocks: game.Clocks{Timed: true, White: initialTime, Black: initialTime, At: now}}
		if status == game.Waiting {
			s.Black = game.Seat{}
		}
		return s
	}
	render := func(s play.Snapshot, viewer int64) page {
		t.Helper()
		v := views.NewGameView(s, views.GameViewInput{Viewer: viewer, Letters: chess.English, Now: now, BaseURL: "http://127.0.0.1:8080/"})
		var b strings.Builder
		if err := views.GamePage(v, nil).Render(ctx, &b); err != nil {
			t.Fatal(err)
		}
		return mustDoc(t, b.String())
	}

	waiting := render(snap(game.Waiting), 1)
	if got, err := invitePath(waiting); err != nil || got != "/invite/tok3n" {
		t.Errorf("invite of the waiting game = %q, %v; want /invite/tok3n", got, err)
	}
	if got, err := boardColor(waiting); err != nil || got != "w" {
		t.Errorf("creator's colour = %q, %v; want w", got, err)
	}
	for _, tc := range []struct {
		viewer int64
		want   string
	}{{1, "w"}, {2, "b"}} {
		page := render(snap(game.Active), tc.viewer)
		if got, err := boardColor(page); err != nil || got != tc.want {
			t.Errorf("colour of user %d = %q, %v; want %s", tc.viewer, got, err, tc.want)
		}
		if _, err := invitePath(page); err == nil {
			t.Errorf("user %d: an invite link on a running game", tc.viewer)
		}
	}
	spectator := render(snap(game.Active), 3)
	if got, err := boardColor(spectator); err == nil {
		t.Errorf("a spectator's page has the colour %q", got)
	}
	if !strings.HasPrefix(spectator.stream, "/games/7/events?") || !strings.Contains(spectator.stream, "&shown=") {
		t.Errorf("a spectator's stream = %q, want the game's, with the key of the panel shown", spectator.stream)
	}
}
