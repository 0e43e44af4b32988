package handlers

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Istanbul on a machine without zoneinfo

	"go.uber.org/goleak"

	"satranc/engine/account"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/engine/tourney"
	"satranc/views"
)

// fakeTourneys serves standings set by the test, with now fixed on
// Sunday 2026-11-29 in Istanbul.
type fakeTourneys struct {
	now time.Time
	loc *time.Location

	mu        sync.Mutex
	standings []tourney.Standing
	results   []tourney.Result
}

func newFakeTourneys(t *testing.T) *fakeTourneys {
	loc, err := time.LoadLocation("Europe/Istanbul")
	if err != nil {
		t.Fatal(err)
	}
	return &fakeTourneys{now: time.Date(2026, 11, 29, 15, 0, 0, 0, loc), loc: loc}
}

func (f *fakeTourneys) Current(k tourney.Kind) tourney.Period {
	return tourney.PeriodOf(k, f.now, f.loc)
}

func (f *fakeTourneys) Period(k tourney.Kind, key string) (tourney.Period, error) {
	return tourney.ParsePeriod(k, key, f.loc)
}

func (f *fakeTourneys) Standings(_ context.Context, p tourney.Period) ([]tourney.Standing, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p.Key() == "2026-11-27" { // a past day not paid yet
		return []tourney.Standing{{Rank: 1, User: 3, Name: "cemil", Points: 3, Games: 1, Wins: 1}}, nil
	}
	if p != f.Current(p.Kind) {
		return nil, nil
	}
	return tourney.Rank(append([]tourney.Standing(nil), f.standings...)), nil
}

func (f *fakeTourneys) StandingsAfter(ctx context.Context, p tourney.Period, _ time.Time) ([]tourney.Standing, error) {
	return f.Standings(ctx, p)
}

func (f *fakeTourneys) Prizes(k tourney.Kind) []tourney.Prize { return tourney.DefaultPrizes().For(k) }

func (f *fakeTourneys) Results(_ context.Context, k tourney.Kind, _ int) ([]tourney.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []tourney.Result
	for _, r := range f.results {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fakeTourneys) Result(ctx context.Context, k tourney.Kind, key string) (tourney.Result, bool, error) {
	rs, _ := f.Results(ctx, k, 0)
	for _, r := range rs {
		if r.Key == key {
			return r, true, nil
		}
	}
	return tourney.Result{}, false, nil
}

func (f *fakeTourneys) PrizesWon(_ context.Context, user int64, _ int) ([]tourney.Won, error) {
	if user != cemil.ID {
		return nil, nil
	}
	return []tourney.Won{{Kind: tourney.Daily, Key: "2026-11-28", Place: 1, Prize: tourney.Prize{Chips: 10_000, Item: "frame_cup_gold"}}}, nil
}

func (f *fakeTourneys) set(ss ...tourney.Standing) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.standings = ss
}

func TestTournamentPages(t *testing.T) {
	tt := newFakeTourneys(t)
	tt.set(tourney.Standing{User: 1, Name: "ayse", Points: 4, Games: 2, Wins: 1}, tourney.Standing{User: 2, Name: "bora", Points: 6, Games: 2, Wins: 2})
	tt.results = []tourney.Result{{Kind: tourney.Daily, Key: "2026-11-28", Winners: []tourney.Winner{
		{Standing: tourney.Standing{Rank: 1, User: 3, Name: "cemil", Points: 9}, Prize: tourney.Prize{Chips: 10_000, Item: "frame_cup_gold"}},
	}}}
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Tournaments: tt})
	cases := []struct {
		path   string
		status int
		want   []string
	}{
		{"/tournaments", http.StatusSeeOther, nil},
		{"/tournaments/daily", http.StatusOK, []string{`data-rank="1" data-user="bora" data-points="6"`, `data-rank="2" data-user="ayse"`,
			`data-period="2026-11-29"`, "10,000 chips + Gold Cup profile frame", `href="/tournaments/daily/2026-11-28"`, "cemil"}},
		{"/tournaments/weekly", http.StatusOK, []string{`data-period="2026-11-23"`, "Week 2026-11-23 to 2026-11-29", "Europe/Istanbul"}},
		{"/tournaments/daily/2026-11-28", http.StatusOK, []string{`data-testid="winner" data-rank="1" data-user="cemil"`, "Ended at 2026-11-29 00:00"}},
		{"/tournaments/daily/2026-11-28?lang=tr", http.StatusOK, []string{"28.11.2026 günü.", "Bitti: 29.11.2026 00:00 (İstanbul saati)."}},
		{"/tournaments/weekly?lang=tr", http.StatusOK, []string{"23.11.2026 – 29.11.2026 haftası.", "Bitiş: 30.11.2026 00:00 (İstanbul saati)."}},
		{"/tournaments/daily/2026-11-27", http.StatusOK, []string{`data-testid="not-paid"`, `data-user="cemil"`}},
		{"/tournaments/daily/2026-11-26", http.StatusOK, []string{"Nobody scored points in this period"}},
		{"/tournaments/daily/2026-11-29", http.StatusSeeOther, nil},
		{"/tournaments/daily/2026-11-30", http.StatusNotFound, nil},
		{"/tournaments/weekly/2026-11-24", http.StatusNotFound, nil},
		{"/tournaments/daily/yesterday", http.StatusNotFound, nil},
		{"/tournaments/monthly", http.StatusNotFound, nil},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			resp := get(t, h.Routes(), tc.path)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("GET %s = %d, want %d", tc.path, resp.StatusCode, tc.status)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(body), w) {
					t.Errorf("GET %s: no %q in the page", tc.path, w)
				}
			}
		})
	}
}

// TestProfilePrizes: a profile lists the tournament prizes won, linking
// each period; a player who won none has no such list.
func TestProfilePrizes(t *testing.T) {
	accounts := &fakeAccounts{users: []account.User{ayse, cemil}}
	profiles := &fakeProfiles{accounts: accounts}
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts,
		Leaderboard: profiles, Profiles: profiles, Tournaments: newFakeTourneys(t)})
	body := func(path string) string {
		resp := get(t, h.Routes(), path)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d", path, resp.StatusCode)
		}
		return string(b)
	}
	page := body("/players/" + cemil.Name)
	for _, want := range []string{`data-testid="prize-won" data-kind="daily" data-period="2026-11-28" data-place="1"`,
		`href="/tournaments/daily/2026-11-28"`, "place 1", "10,000 chips + Gold Cup profile frame"} {
		if !strings.Contains(page, want) {
			t.Errorf("cemil's profile: no %q", want)
		}
	}
	if strings.Contains(body("/players/"+ayse.Name), `data-testid="prizes-won"`) {
		t.Error("ayse's profile lists prizes she never won")
	}
}

// TestTournamentEvents: the live standings stream sends the panel at once
// and again when a game ends.
func TestTournamentEvents(t *testing.T) {
	defer goleak.VerifyNone(t)
	tt := newFakeTourneys(t)
	// The stream sends the next day's panel when the day ends by the real
	// clock: the fake's day must be today, or it rolls over at once and
	// that panel comes before the one this test waits for.
	tt.now = time.Now().In(tt.loc)
	games := newFakeGames()
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Tournaments: tt, Games: games, Chat: games, Voice: games, Users: &fakeAccounts{}})
	srv := httptest.NewServer(h.Routes())
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/tournaments/daily/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	s := &stream{resp: resp, events: make(chan sseEvent, 16), done: make(chan struct{}), cancel: cancel}
	go s.read()
	defer s.close(t)

	next := func() sseEvent {
		t.Helper()
		for {
			select {
			case ev, ok := <-s.events:
				if !ok {
					t.Fatal("the stream ended")
				}
				if ev.name == views.EventStandings {
					return ev
				}
			case <-time.After(sseTimeout):
				t.Fatal("no standings within the timeout")
			}
		}
	}
	if ev := next(); !strings.Contains(ev.data, `data-testid="standings-empty"`) {
		t.Fatalf("first panel %q, want empty standings", ev.data)
	}
	tt.set(tourney.Standing{User: 1, Name: "ayse", Points: 3, Games: 1, Wins: 1})
	games.hub.Publish(play.Endings, &play.Event{GameID: 9, Payload: game.Ended{}})
	if ev := next(); !strings.Contains(ev.data, `data-user="ayse" data-points="3" data-games="1"`) {
		t.Fatalf("panel after a game's end %q, want ayse with 3 points", ev.data)
	}
	// A game ending right after that one is not lost: its panel comes
	// when standingsEvery has passed.
	tt.set(tourney.Standing{User: 1, Name: "ayse", Points: 3, Games: 1, Wins: 1}, tourney.Standing{User: 2, Name: "bora", Points: 1, Games: 1})
	games.hub.Publish(play.Endings, &play.Event{GameID: 10, Payload: game.Ended{}})
	if ev := next(); !strings.Contains(ev.data, `data-user="bora" data-points="1"`) {
		t.Fatalf("panel after a second game's end %q, want bora with 1 point", ev.data)
	}
}
