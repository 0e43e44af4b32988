package store

import (
	"context"
	"slices"
	"testing"

	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestGamesToWatch checks the Watch page's order: games in progress only,
// no practice game, the best-rated first with a bot at its fixed rating.
func TestGamesToWatch(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 6)
	ctx := context.Background()
	for id, rating := range map[int]int{1: 1500, 2: 1500, 3: 2000, 4: 1900, 5: 1000, 6: 1000} {
		if _, err := s.db.Exec(`UPDATE users SET rating = ? WHERE id = ?`, rating, id); err != nil {
			t.Fatal(err)
		}
	}
	start := func(kind play.Kind, white, black game.Seat, status game.Status) int64 {
		t.Helper()
		id, err := s.CreateGame(ctx, play.GameRecord{Kind: kind, White: white, Black: black,
			Control: clock.MustParse("3+2"), Status: game.Waiting, CreatedAt: gameT0})
		if err != nil {
			t.Fatal(err)
		}
		if status == game.Waiting {
			return id
		}
		if err := s.StartGame(ctx, id, white, black, gameT0); err != nil {
			t.Fatal(err)
		}
		return id
	}
	mid := start(play.Quick, game.Human(1), game.Human(2), game.Active)       // 3000
	top := start(play.Private, game.Human(3), game.Human(4), game.Active)     // 3900
	bot := start(play.Quick, game.Human(5), game.Bot(game.Hard), game.Active) // 1000+1700
	start(play.Practice, game.Human(6), game.Bot(game.Hard), game.Active)     // left out
	start(play.Private, game.Human(6), game.Seat{}, game.Waiting)             // not begun
	got, err := s.GamesToWatch(ctx, 10)
	if want := []int64{top, mid, bot}; err != nil || !slices.Equal(got, want) {
		t.Errorf("GamesToWatch(10) = %v, %v, want %v", got, err, want)
	}
	if got, err := s.GamesToWatch(ctx, 2); err != nil || len(got) != 2 {
		t.Errorf("GamesToWatch(2) = %v, %v, want 2 games", got, err)
	}
}
