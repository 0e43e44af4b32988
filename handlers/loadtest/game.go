package loadtest

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// pair is two users at one private game.
type pair struct {
	path         string // /games/{id}
	white, black *user
	// streams are the URLs of the event streams that white's and black's
	// pages of the new game name (page.stream): opened first, they send
	// no panel the page shows already, as in a browser.
	streams [2]string
}

// control is the driver's time control: initialTime on each clock and
// increment added after each move. At the default pace (--think 5s, 120
// plies at most) a player keeps more than half of it: the clocks never
// decide a game, and players do not all hurry at once as their clocks run
// low together (which with 3+2 made the load climb by 70% in the ninth
// minute of a soak and ended it in a wave of lost games). It must be one of
// the controls the site offers (clock.Controls).
const (
	control     = "10+0"
	initialTime = 10 * time.Minute
	increment   = 0
)

// newPrivateGame has a create a private game and b join it by its invite
// link, and returns the game with its colours. Each player's page is the
// one their browser would show: a's the new game's page, where a waits
// with its colour drawn (the colours are drawn when the game is made) and
// its stream named, b's the page the invite ends on. As in a browser, a
// does not load the page again when b sits down: a's stream, named by the
// waiting page, brings the whole panel of the game begun.
func newPrivateGame(ctx context.Context, a, b *user) (pair, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	resp, err := a.postForm(ctx, "/games/private", url.Values{"control": {control}}, false)
	if err != nil {
		return pair{}, err
	}
	defer drainClose(resp)
	path, ok := gamePath(resp.Request.URL.Path)
	if resp.StatusCode != http.StatusOK || !ok {
		return pair{}, &statusError{"create", resp.StatusCode}
	}
	created, err := readPage(resp.Body, true)
	if err != nil {
		return pair{}, fmt.Errorf("parse new game: %w", err)
	}
	invite, err := invitePath(created)
	if err != nil {
		return pair{}, err
	}
	color, err := boardColor(created)
	if err != nil {
		return pair{}, err
	}
	jr, err := b.postForm(ctx, invite, nil, false)
	if err != nil {
		return pair{}, err
	}
	defer drainClose(jr)
	if joined, _ := gamePath(jr.Request.URL.Path); jr.StatusCode != http.StatusOK || joined != path {
		return pair{}, &statusError{"join", jr.StatusCode}
	}
	joinedPage, err := readPage(jr.Body, false)
	if err != nil {
		return pair{}, fmt.Errorf("parse joined game: %w", err)
	}
	joinedColor, err := boardColor(joinedPage)
	if err != nil {
		return pair{}, fmt.Errorf("joined game: %w", err)
	}
	if joinedColor == color {
		return pair{}, fmt.Errorf("join: both players' pages show the board from %q", color)
	}
	if color == "b" {
		return pair{path, b, a, [2]string{joinedPage.stream, created.stream}}, nil
	}
	return pair{path, a, b, [2]string{created.stream, joinedPage.stream}}, nil
}

// gamePath returns the path of the game page p, /games/{id} without a
// trailing slash, and whether p is one: creating and joining a game end,
// after their redirects, on that page.
func gamePath(p string) (string, bool) {
	p = strings.TrimSuffix(p, "/")
	id, ok := strings.CutPrefix(p, "/games/")
	if !ok || id == "" || strings.Trim(id, "0123456789") != "" {
		return "", false
	}
	return p, true
}
