package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/elo"
	"satranc/engine/game"
	"satranc/engine/play"
)

// openingLine returns the text of the page's opening line, spaces
// collapsed, "" when it has none.
func openingLine(t *testing.T, resp *http.Response) string {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	return strings.Join(strings.Fields(doc.Find(`[data-testid="opening"]`).Text()), " ")
}

// TestReplayPageOpening: the replay names the opening of the position it
// shows, its family in the page's language.
func TestReplayPageOpening(t *testing.T) {
	snap := testSnapshot(t, time.Now(), "e2e4", "e7e5", "g1f3")
	snap.Status, snap.Outcome = game.Finished, game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}
	env := newProfileEnv(t, snap)
	tests := []struct {
		target, lang, want string
	}{
		{"/replay/7", "", "C40 King's Knight Opening"},
		{"/replay/7?ply=2", "", "C20 King's Pawn Game"},
		{"/replay/7?ply=0", "", ""},
		{"/replay/7", "tr", "C40 Şah Atı Açılışı"},
	}
	for _, tc := range tests {
		rq := gameReq{target: tc.target}
		if tc.lang != "" {
			rq.as = &ayse
			rq.target += "?lang=" + tc.lang
		}
		if got := openingLine(t, env.do(t, rq)); !strings.HasSuffix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("GET %s: opening line %q, want %q", rq.target, got, tc.want)
		}
	}
}

// TestGamePageOpening: players and spectators see the opening of the game.
func TestGamePageOpening(t *testing.T) {
	env := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4", "c7c5"))
	for _, as := range []*account.User{&ayse, &cemil, nil} {
		if got := openingLine(t, env.do(t, gameReq{target: "/games/7", as: as})); !strings.HasSuffix(got, "B20 Sicilian Defense") {
			t.Errorf("game page as %v: opening line %q, want B20 Sicilian Defense", as, got)
		}
	}
	if got := openingLine(t, env.do(t, gameReq{target: "/games/7", lang: "tr"})); !strings.HasSuffix(got, "B20 Sicilya Savunması") {
		t.Errorf("Turkish game page: opening line %q, want B20 Sicilya Savunması", got)
	}
}

// fakeSettlements are the settlements of game 7 by user.
type fakeSettlements map[int64]play.Settlement

func (f fakeSettlements) GameSettlement(_ context.Context, _, user int64) (play.Settlement, error) {
	return f[user], nil
}

// TestGamePGNRatings: a rated game's PGN gets the ratings the players had
// as it began and, once its end is settled, their changes; a game still
// played the current ratings; a bot its fixed one; an unrated game none.
func TestGamePGNRatings(t *testing.T) {
	settled := fakeSettlements{
		ayse.ID: {Settled: true, Rated: true, Rating: play.RatingChange{Before: 1500, After: 1508}},
		bora.ID: {Settled: true, Rated: true, Rating: play.RatingChange{Before: 1520, After: 1512}},
	}
	over := func(s *play.Snapshot) {
		s.Status, s.Outcome = game.Finished, game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}
	}
	tests := []struct {
		name string
		kind play.Kind
		edit func(*play.Snapshot)
		want play.PGNOptions
	}{
		{"settled", play.Quick, over, play.PGNOptions{WhiteElo: 1500, BlackElo: 1520, RatingDiffs: true, WhiteRatingDiff: 8, BlackRatingDiff: -8}},
		{"being played", play.Lounge, func(*play.Snapshot) {}, play.PGNOptions{WhiteElo: 1234, BlackElo: 1234}},
		{"bot", play.Quick, func(s *play.Snapshot) { over(s); s.Black = game.Bot(game.Medium) },
			play.PGNOptions{WhiteElo: 1500, BlackElo: elo.BotRating(game.Medium), RatingDiffs: true, WhiteRatingDiff: 8}},
		{"unstaked", play.Lounge, func(s *play.Snapshot) { over(s); s.Unstaked = true }, play.PGNOptions{}},
		{"private", play.Private, over, play.PGNOptions{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := testSnapshot(t, time.Now(), "e2e4", "e7e5")
			snap.Kind = tc.kind
			tc.edit(&snap)
			accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
			games := newFakeGames(snap)
			h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games,
				Profiles: &fakeProfiles{accounts: accounts}, Settlements: settled})
			env := &gameEnv{h: h.Routes(), games: games}
			if resp := env.do(t, gameReq{target: "/games/7/pgn", as: &cemil}); resp.StatusCode != http.StatusOK {
				t.Fatalf("GET pgn = %d", resp.StatusCode)
			}
			got := games.pgnOpt
			got.White, got.Black, got.Site, got.Letters = "", "", "", chess.English
			if got != tc.want {
				t.Errorf("PGN options %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestOpeningCache: a live game's opening is named as openingAt names it
// at every ply, kept per game, never replaced by an older snapshot's, and
// dropped when the game is over.
func TestOpeningCache(t *testing.T) {
	now := time.Now()
	line := []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4"}
	c := newOpeningCache()
	snaps := make([]play.Snapshot, len(line)+1)
	for ply := range snaps {
		snaps[ply] = testSnapshot(t, now, line[:ply]...)
		snaps[ply].ID = 7
	}
	for ply, snap := range snaps {
		if got, want := c.of(snap), openingAt(snap, ply); got != want {
			t.Errorf("ply %d: %+v, want %+v", ply, got, want)
		}
		if again := c.of(snap); again != openingAt(snap, ply) {
			t.Errorf("ply %d, kept: %+v", ply, again)
		}
	}
	if got, want := c.of(snaps[2]), openingAt(snaps[2], 2); got != want {
		t.Errorf("an older snapshot: %+v, want %+v", got, want)
	}
	if kept := c.games[7].walk; kept.Plies() != len(line) {
		t.Errorf("kept ply %d after an older snapshot, want %d", kept.Plies(), len(line))
	}
	// A stream that missed moves names the opening from its last ply.
	for _, ply := range []int{1, len(line)} {
		snap := snaps[ply]
		snap.ID = 9
		if got, want := c.of(snap), openingAt(snap, ply); got != want {
			t.Errorf("ply %d after ply 1: %+v, want %+v", ply, got, want)
		}
	}
	other := testSnapshot(t, now, "d2d4")
	other.ID = 8
	if got, want := c.of(other), openingAt(other, 1); got != want || got == c.of(snaps[len(line)]) {
		t.Errorf("another game: %+v, want %+v", got, want)
	}
	over := snaps[len(line)]
	over.Status = game.Finished
	if got, want := c.of(over), openingAt(over, len(line)); got != want {
		t.Errorf("over: %+v, want %+v", got, want)
	}
	if _, kept := c.games[7]; kept {
		t.Error("a finished game's opening is still kept")
	}
}

// TestOpeningCacheSweep: a game whose ply has not changed for openingIdle
// (it ended with nobody rendering it) is dropped by the cache's timer,
// which stops once the cache is empty.
func TestOpeningCacheSweep(t *testing.T) {
	c := newOpeningCache()
	for id, line := range [][]string{{"e2e4"}, {"d2d4", "d7d5"}} {
		snap := testSnapshot(t, time.Now(), line...)
		snap.ID = int64(id + 1)
		c.of(snap)
	}
	now := time.Now()
	c.mu.Lock()
	e := c.games[1]
	e.stored = now.Add(-openingIdle)
	c.games[1] = e
	c.mu.Unlock()
	left := c.sweep(now)
	c.mu.Lock()
	_, idle := c.games[1]
	_, live := c.games[2]
	c.mu.Unlock()
	if idle || !live || !left {
		t.Errorf("after a sweep: idle game kept %v, live game kept %v, more to sweep %v; want false, true, true", idle, live, left)
	}
	if left := c.sweep(now.Add(openingIdle)); left {
		t.Error("the last game's sweep reports games left")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.games != nil {
		t.Errorf("after the last game's sweep: %d games kept, want the map gone", len(c.games))
	}
	c.sweeps.mu.Lock()
	defer c.sweeps.mu.Unlock()
	if c.sweeps.timer == nil {
		t.Error("no sweep due while the cache holds games")
	}
}
