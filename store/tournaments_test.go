package store

import (
	"context"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Istanbul on a machine without zoneinfo

	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/engine/tourney"
)

// istanbul is the default time zone of the tournaments.
func istanbul(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Istanbul")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// playTournamentDay plays, on 2026-11-29 (a Sunday, so the day and the
// week end together), games of every kind that does and does not score,
// between users 1..4 (userb, userc, userd, usere), each funded first.
// What scores:
//
//	userb: beats userc (3), draws userd (1)                   = 4 in 2 games, 1 win
//	userc: loses to userb (1), beats a bot (3)                = 4 in 2 games, 1 win
//	userd: draws userb (1), beats usere three times (9)       = 10 in 4 games, 3 wins
//	usere: loses three times to userd (3)                     = 3 in 3 games
//
// and what does not: an aborted lounge game, a Quick Play game, the
// fourth game of userd and usere within 24 hours (unstaked), a voided
// game, and a game that ends after midnight.
func playTournamentDay(t *testing.T, s *Store) {
	t.Helper()
	mustUsers(t, s, 4)
	for u := int64(1); u <= 4; u++ {
		fund(t, s, u, 100_000)
	}
	at := gameT0 // 15:00 in Istanbul
	next := func() time.Time { at = at.Add(time.Minute); return at }
	h := game.Human
	id, _ := lounge(t, s, h(1), h(2), 500, next())
	finish(t, s, id, game.WhiteWins, next())
	id, _ = lounge(t, s, h(3), h(1), 500, next())
	finish(t, s, id, game.Draw, next())
	id, _ = lounge(t, s, h(2), game.Bot(game.Easy), 500, next())
	finish(t, s, id, game.WhiteWins, next())
	for i := range 4 {
		id, unstaked := lounge(t, s, h(4), h(3), 500, next())
		if unstaked != (i == 3) {
			t.Fatalf("game %d of userd and usere: unstaked = %v", i+1, unstaked)
		}
		finish(t, s, id, game.BlackWins, next())
	}

	id, _ = lounge(t, s, h(1), h(3), 500, next())
	abort(t, s, id, next())
	id = create(t, s, play.Quick, h(4), h(1), next())
	finish(t, s, id, game.WhiteWins, next())
	id, _ = lounge(t, s, h(2), h(1), 2500, next())
	finish(t, s, id, game.WhiteWins, next())
	if _, err := s.db.Exec("UPDATE games SET voided_at = ? WHERE id = ?", s.now(), id); err != nil {
		t.Fatal(err)
	}
	id, _ = lounge(t, s, h(2), h(4), 500, time.Date(2026, 11, 29, 20, 59, 0, 0, time.UTC))
	finish(t, s, id, game.WhiteWins, time.Date(2026, 11, 29, 21, 0, 0, 0, time.UTC)) // Monday 00:00 in Istanbul
}

func TestStandings(t *testing.T) {
	s, _ := mustOpen(t)
	playTournamentDay(t, s)
	ist := istanbul(t)
	for _, k := range tourney.Kinds {
		p := tourney.PeriodOf(k, gameT0, ist)
		ss, err := s.Standings(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got := tourney.Rank(ss)
		want := []tourney.Standing{
			{Rank: 1, User: 3, Name: "userd", Points: 10, Games: 4, Wins: 3},
			{Rank: 2, User: 1, Name: "userb", Points: 4, Games: 2, Wins: 1},
			{Rank: 2, User: 2, Name: "userc", Points: 4, Games: 2, Wins: 1},
			{Rank: 4, User: 4, Name: "usere", Points: 3, Games: 3},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s standings\n got %+v\nwant %+v", k, got, want)
		}
		next, err := s.Standings(context.Background(), p.Next())
		if err != nil || len(next) != 2 {
			t.Errorf("%s standings after midnight = %+v, %v, want the one game at 00:00", k, next, err)
		}
	}
}

// TestPrizePayoutOnceAcrossRestart: the prizes of a day and a week are
// paid exactly once, although the payout runs before the boundary, the
// server stops at the boundary, and after it two servers (two opens of
// the same database file) pay at the same moment, and again after another
// restart.
func TestPrizePayoutOnceAcrossRestart(t *testing.T) {
	ctx := context.Background()
	ist := istanbul(t)
	prizes := tourney.Prizes{
		Daily:  []tourney.Prize{{Chips: 1000, Item: "frame_cup_gold"}, {Chips: 500}},
		Weekly: []tourney.Prize{{Chips: 7000, Item: "board_iznik"}},
	}
	boundary := time.Date(2026, 11, 29, 21, 0, 0, 0, time.UTC) // Monday 00:00 in Istanbul
	service := func(s *Store, now time.Time) *tourney.Service {
		return tourney.New(tourney.Config{Store: s, Location: ist, Prizes: prizes, Now: func() time.Time { return now }})
	}
	payEnded := func(s *Store, now time.Time) int {
		t.Helper()
		n, err := service(s, now).PayEnded(ctx)
		if err != nil {
			t.Fatalf("PayEnded at %s = %v", now, err)
		}
		return n
	}

	s1, path := mustOpen(t)
	playTournamentDay(t, s1)
	before := map[int64]int64{}
	for u := int64(1); u <= 4; u++ {
		before[u], _ = s1.Balance(ctx, u)
	}
	if n := payEnded(s1, boundary.Add(-time.Second)); n != 0 {
		t.Fatalf("before midnight: paid %d periods, want 0", n)
	}
	if n := payEnded(s1, boundary.Add(tourney.DefaultPayoutDelay/2)); n != 0 {
		t.Fatalf("just after midnight, within the delay: paid %d periods, want 0", n)
	}
	if err := s1.Close(); err != nil { // the server stops at the boundary
		t.Fatal(err)
	}

	after := boundary.Add(2 * time.Minute)
	reopen := func() *Store {
		s, err := openAt(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	s2, s3 := reopen(), reopen()
	var wg sync.WaitGroup
	paid := make([]int, 2)
	for i, s := range []*Store{s2, s3} {
		wg.Go(func() { paid[i] = payEnded(s, after) })
	}
	wg.Wait()
	if paid[0]+paid[1] != 2 {
		t.Fatalf("two servers after midnight paid %v periods, want 2 in all (the day and the week)", paid)
	}
	want := map[int64]int64{1: before[1] + 500, 2: before[2] + 500, 3: before[3] + 1000 + 7000, 4: before[4]}
	wantBalances(t, s2, want)

	if n := payEnded(s2, after.Add(time.Hour)); n != 0 {
		t.Errorf("again: paid %d periods, want 0", n)
	}
	// The store's own guard, whatever the caller asks: a paid period is
	// never paid again.
	for _, k := range tourney.Kinds {
		p := tourney.PeriodOf(k, gameT0, ist)
		if ok, err := s3.PayPeriod(ctx, p, prizes.For(k), after); ok || err != nil {
			t.Errorf("PayPeriod(%s %s) again = %v, %v, want false, nil", k, p.Key(), ok, err)
		}
	}
	wantBalances(t, s3, want)
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	s4 := reopen()
	if n := payEnded(s4, after.Add(48*time.Hour)); n != 2 {
		// Two more days passed: Monday (with one game) and Tuesday (none).
		t.Errorf("two days later: paid %d periods, want 2", n)
	}
	want[2] += 1000 // Monday: userc alone in first place, with the game at 00:00
	want[4] += 500
	wantBalances(t, s4, want)

	res, ok, err := s4.Result(ctx, tourney.Daily, "2026-11-29")
	if err != nil || !ok {
		t.Fatalf("Result(daily 2026-11-29) = %v, %v", ok, err)
	}
	var places []string
	for _, w := range res.Winners {
		places = append(places, w.Name+" "+w.Prize.Item)
	}
	if want := []string{"userd frame_cup_gold", "userb ", "userc "}; !reflect.DeepEqual(places, want) {
		t.Errorf("winners of 2026-11-29 = %q, want %q", places, want)
	}
	weeks, err := s4.Results(ctx, tourney.Weekly, 10)
	if err != nil || len(weeks) != 1 || weeks[0].Key != "2026-11-23" || weeks[0].Winners[0].Prize.Chips != 7000 {
		t.Errorf("weekly results = %+v, %v", weeks, err)
	}
	days, err := s4.Results(ctx, tourney.Daily, 10)
	if err != nil || len(days) != 2 || days[0].Key != "2026-11-30" {
		t.Errorf("daily results = %+v, %v, want Monday then Sunday (Tuesday had no players)", days, err)
	}
	for _, c := range []struct {
		user int64
		want []string
	}{{3, []string{"board_iznik", "frame_cup_gold"}}, {1, nil}} {
		inv, err := s4.Inventory(ctx, c.user)
		slices.Sort(inv.Granted)
		if err != nil || !reflect.DeepEqual(inv.Granted, c.want) {
			t.Errorf("Inventory(%d) = %v, %v, want %v", c.user, inv.Granted, err, c.want)
		}
	}
	won, err := s4.PrizesWon(ctx, 3, 10)
	wantWon := []tourney.Won{
		{Kind: tourney.Daily, Key: "2026-11-29", Place: 1, Prize: prizes.Daily[0]},
		{Kind: tourney.Weekly, Key: "2026-11-23", Place: 1, Prize: prizes.Weekly[0]},
	}
	if err != nil || !reflect.DeepEqual(won, wantWon) {
		t.Errorf("PrizesWon(userd) = %+v, %v, want %+v", won, err, wantWon)
	}
	var entries int
	if err := s4.db.Get(&entries, "SELECT COUNT(*) FROM ledger WHERE reason = 'prize'"); err != nil || entries != 6 {
		t.Errorf("prize ledger entries = %d, %v, want 6", entries, err)
	}
}

// BenchmarkStandings: the standings of a day with 2,000 finished lounge
// games among 200 players, which each live standings page reads whenever
// a game ends.
func BenchmarkStandings(b *testing.B) {
	s, _ := mustOpen(b)
	const players, games = 200, 2000
	for i := 1; i <= players; i++ {
		if _, err := s.db.Exec(`INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, 'x', ?)`,
			i, "p"+strconv.Itoa(i), s.now()); err != nil {
			b.Fatal(err)
		}
	}
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	results := []string{"1-0", "0-1", "1/2-1/2"}
	for i := range games {
		w, bl := 1+i%players, 1+(i*7+3)%players
		if w == bl {
			bl = 1 + bl%players
		}
		at := formatTime(day.Add(time.Duration(i) * 40 * time.Second))
		if _, err := s.db.Exec(`INSERT INTO games (kind, white_id, black_id, start_fen, stake, rated, status, result,
			termination, created_at, started_at, ended_at, settled) VALUES ('lounge', ?, ?, 'startpos', 500, 1, 'finished', ?,
			'resignation', ?, ?, ?, 1)`, w, bl, results[i%3], at, at, at); err != nil {
			b.Fatal(err)
		}
	}
	p := tourney.PeriodOf(tourney.Daily, day.Add(12*time.Hour), time.UTC)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		ss, err := s.Standings(ctx, p)
		if err != nil || len(ss) != players {
			b.Fatalf("Standings = %d players, %v", len(ss), err)
		}
	}
}
