package store

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"satranc/engine/chips"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/lobby"
	"satranc/engine/play"
)

func rating(t *testing.T, s *Store, user int64) (r, rated, xp int) {
	t.Helper()
	row := s.db.QueryRow("SELECT rating, rated_games, xp FROM users WHERE id = ?", user)
	if err := row.Scan(&r, &rated, &xp); err != nil {
		t.Fatal(err)
	}
	return r, rated, xp
}

// create inserts a started game of kind between white and black.
func create(t *testing.T, s *Store, kind play.Kind, white, black game.Seat, at time.Time) int64 {
	t.Helper()
	rec := play.GameRecord{Kind: kind, White: white, Black: black, Control: fivePlusZero, Status: game.Active, CreatedAt: at, StartedAt: at}
	var id int64
	var err error
	if kind == play.Quick {
		id, _, err = s.CreatePublicGame(context.Background(), rec)
	} else {
		id, err = s.CreateGame(context.Background(), rec)
	}
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestRatings: Elo changes only for public games played to the end
// (SPEC section 7), against a bot's fixed rating, with K = 40 and then 20.
func TestRatings(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	ctx := context.Background()
	alice, bob, easy := game.Human(1), game.Human(2), game.Bot(game.Easy)
	at := gameT0

	// Unrated: practice, private, an aborted quick game.
	finish(t, s, create(t, s, play.Practice, alice, easy, at), game.WhiteWins, at)
	finish(t, s, create(t, s, play.Private, alice, bob, at), game.WhiteWins, at)
	abort(t, s, create(t, s, play.Quick, alice, bob, at), at)
	for _, u := range []int64{1, 2} {
		if r, n, _ := rating(t, s, u); r != 1200 || n != 0 {
			t.Errorf("user %d after unrated games: %d (%d rated), want 1200 (0)", u, r, n)
		}
	}

	// Quick Play, alice beats bob: 1200 ± 40 × 0.5.
	at = at.Add(time.Minute)
	id := create(t, s, play.Quick, alice, bob, at)
	finish(t, s, id, game.WhiteWins, at)
	if r, n, _ := rating(t, s, 1); r != 1220 || n != 1 {
		t.Errorf("alice %d (%d rated), want 1220 (1)", r, n)
	}
	if r, n, _ := rating(t, s, 2); r != 1180 || n != 1 {
		t.Errorf("bob %d (%d rated), want 1180 (1)", r, n)
	}
	// Quick Play against the Easy bot (800): 1220 + 40 × (1 − 1/(1+10^(−1.05))) = 1220 + 3.25 → 1223.
	at = at.Add(time.Minute)
	finish(t, s, create(t, s, play.Quick, easy, alice, at), game.BlackWins, at)
	if r, _, _ := rating(t, s, 1); r != 1223 {
		t.Errorf("alice after beating Easy: %d, want 1223", r)
	}
	// At 30 rated games K drops to 20.
	if _, err := s.db.Exec("UPDATE users SET rated_games = 30 WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	at = at.Add(time.Minute)
	finish(t, s, create(t, s, play.Quick, bob, easy, at), game.WhiteWins, at)
	// 1180 v 800: expected 0.8999; 20 × 0.1001 = 2.0 → 1182.
	if r, n, _ := rating(t, s, 2); r != 1182 || n != 31 {
		t.Errorf("bob's 31st rated game: %d (%d rated), want 1182 (31)", r, n)
	}

	hist, err := s.RatingHistory(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].Before != 1200 || hist[0].After != 1220 || hist[1].Before != 1220 || hist[1].After != 1223 || hist[0].GameID != id {
		t.Errorf("RatingHistory(1) = %+v", hist)
	}

	// Statistics and XP: alice won the practice, private and two quick
	// games (4 × 15 XP); the aborted game counts nowhere.
	st, err := s.Stats(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := (play.Stats{Rating: 1223, RatedGames: 2, Wins: 4, XP: 60}); st != want {
		t.Errorf("Stats(1) = %+v, want %+v", st, want)
	}
	st, _ = s.Stats(ctx, 2)
	if want := (play.Stats{Rating: 1182, RatedGames: 31, Wins: 1, Losses: 2, XP: 35}); st != want {
		t.Errorf("Stats(2) = %+v, want %+v", st, want)
	}
	if r, err := s.Rating(ctx, 2); err != nil || r != 1182 {
		t.Errorf("Rating(2) = %d, %v; want 1182", r, err)
	}
	if _, err := s.Rating(ctx, 99); !errors.Is(err, ErrNotFound) {
		t.Errorf("Rating(missing) = %v, want ErrNotFound", err)
	}
}

// playOn returns the games service of engine/play on s, at gameT0.
func playOn(t *testing.T, s *Store) *play.Service {
	t.Helper()
	svc := play.New(play.Config{Store: s, Now: func() time.Time { return gameT0 }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(svc.Close)
	return svc
}

// blackResigns plays 1. e4 e5 2. Nf3 Nc6 in game id between white and
// black, and black resigns: a finished game (not aborted), won by white.
func blackResigns(t *testing.T, svc *play.Service, id, white, black int64) {
	t.Helper()
	ctx := context.Background()
	for i, m := range []string{"e4", "e5", "Nf3", "Nc6"} {
		user := white
		if i%2 == 1 {
			user = black
		}
		if err := svc.Move(ctx, id, user, m, 0, i); err != nil {
			t.Fatalf("Move(%s) = %v", m, err)
		}
	}
	if err := svc.Resign(ctx, id, black); err != nil {
		t.Fatal(err)
	}
}

// TestPublicGameThroughPlay plays a lounge game through engine/play on
// SQLite: the stakes are held when it starts and the resignation settles
// pot and fee to the chip, in the transaction that ends it.
func TestPublicGameThroughPlay(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	a, b := mustCreateUser(t, s, "ayşe"), mustCreateUser(t, s, "bora")
	svc := playOn(t, s)

	id, unstaked, err := svc.CreatePublicGame(ctx, play.Lounge, game.Human(a.ID), game.Human(b.ID), clock.MustParse("3+2"), 500)
	if err != nil || unstaked {
		t.Fatalf("CreatePublicGame = %d, %v, %v", id, unstaked, err)
	}
	if n, err := svc.Balance(ctx, a.ID); n != 4500 || err != nil {
		t.Errorf("Balance during the game = %d, %v, want 4500", n, err)
	}
	blackResigns(t, svc, id, a.ID, b.ID)
	wantBalances(t, s, map[int64]int64{a.ID: 5450, b.ID: 4500})
	if r, _, _ := rating(t, s, a.ID); r != 1220 {
		t.Errorf("winner's rating %d, want 1220", r)
	}

	if _, _, err := svc.CreatePublicGame(ctx, play.Quick, game.Human(a.ID), game.Human(b.ID), clock.MustParse("3+2"), 500); err == nil {
		t.Error("a staked Quick Play game was created")
	}
	if _, _, err := svc.CreatePublicGame(ctx, play.Lounge, game.Human(a.ID), game.Human(b.ID), clock.MustParse("3+2"), 500); err == nil {
		t.Error("a player with 4,500 chips sat in Kahvehane")
	}
}

// TestLoungeRematchIsStaked: a rematch at a lounge is another lounge game:
// each player needs 10 × the stake (the loser, left with 4,500, is turned
// away until granted more) and both stakes go to escrow again.
func TestLoungeRematchIsStaked(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	a, b := mustCreateUser(t, s, "ayşe"), mustCreateUser(t, s, "bora")
	svc := playOn(t, s)

	id, _, err := svc.CreatePublicGame(ctx, play.Lounge, game.Human(a.ID), game.Human(b.ID), clock.MustParse("3+2"), 500)
	if err != nil {
		t.Fatal(err)
	}
	blackResigns(t, svc, id, a.ID, b.ID)
	if n, err := svc.Rematch(ctx, id, a.ID); n != 0 || err != nil {
		t.Fatalf("first Rematch = %d, %v, want an offer", n, err)
	}
	if _, err := svc.Rematch(ctx, id, b.ID); !errors.Is(err, chips.ErrInsufficientBalance) {
		t.Fatalf("Rematch with 4,500 chips in Kahvehane: %v, want ErrInsufficientBalance", err)
	}
	wantBalances(t, s, map[int64]int64{a.ID: 5450, b.ID: 4500})

	fund(t, s, b.ID, 1000)
	next, err := svc.Rematch(ctx, id, b.ID)
	if err != nil || next == 0 {
		t.Fatalf("Rematch with 5,500 chips = %d, %v", next, err)
	}
	rec, err := s.Game(ctx, next)
	if err != nil || rec.Kind != play.Lounge || rec.Stake != 500 || rec.Unstaked || rec.RematchOf != id || rec.White != game.Human(b.ID) {
		t.Fatalf("rematch stored as %+v, %v; want a staked Kahvehane game, colours swapped", rec, err)
	}
	wantBalances(t, s, map[int64]int64{a.ID: 4950, b.ID: 5000})
	if got := accountBalance(t, s, chips.EscrowAccount(next)); got != 1000 {
		t.Errorf("rematch escrow %d, want 1000", got)
	}
}

// TestRestrictedKeptFromPublicTables: an account restricted after a game
// cannot sit at a public table by a rematch either (the lobby turns it
// away; the store's transaction does too), in Quick Play or a lounge.
func TestRestrictedKeptFromPublicTables(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	a, b := mustCreateUser(t, s, "ayşe"), mustCreateUser(t, s, "bora")
	svc := playOn(t, s)
	for _, tc := range []struct {
		kind  play.Kind
		stake int64
	}{{play.Quick, 0}, {play.Lounge, 500}} {
		if err := s.SetRestricted(ctx, "bora", false); err != nil {
			t.Fatal(err)
		}
		id, _, err := svc.CreatePublicGame(ctx, tc.kind, game.Human(a.ID), game.Human(b.ID), clock.MustParse("3+2"), tc.stake)
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.Resign(ctx, id, b.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.SetRestricted(ctx, "bora", true); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Rematch(ctx, id, a.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Rematch(ctx, id, b.ID); !errors.Is(err, lobby.ErrRestricted) {
			t.Errorf("%s rematch of a restricted player: %v, want ErrRestricted", tc.kind, err)
		}
		if _, _, err := svc.CreatePublicGame(ctx, tc.kind, game.Human(b.ID), game.Human(a.ID), clock.MustParse("3+2"), tc.stake); !errors.Is(err, lobby.ErrRestricted) {
			t.Errorf("%s game for a restricted player: %v, want ErrRestricted", tc.kind, err)
		}
	}
	wantBalances(t, s, map[int64]int64{a.ID: 5000, b.ID: 5000})
}
