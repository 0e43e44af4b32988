package play

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// TestPracticeGameOptions: a practice game can be started at every level
// (Easy, Medium, Hard), with every time control of SPEC section 4 or
// untimed, and as White, Black or a random colour; each starts at once,
// unstaked, with the computer at the level asked for. Other levels and a
// time control that is not offered are refused.
func TestPracticeGameOptions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newService(newMemStore())
		defer s.Close()
		ctx := context.Background()
		const user = 7
		controls := append([]clock.Control{clock.Untimed}, clock.Offered...)
		for _, level := range []game.Level{game.Easy, game.Medium, game.Hard} {
			for _, control := range controls {
				for _, color := range []ColorChoice{PlayWhite, PlayBlack, RandomColor} {
					id, err := s.CreatePracticeGame(ctx, user, level, control, color)
					if err != nil {
						t.Fatalf("%v %v %v: %v", level, control, color, err)
					}
					snap, err := s.Game(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					side, ok := snap.SideOf(user)
					bot := snap.Seat(side.Other())
					switch {
					case !ok || !bot.IsBot() || bot.Bot != level:
						t.Errorf("%v %v %v: the user plays %v (%v), the computer %v", level, control, color, side, ok, bot)
					case color == PlayWhite && side != chess.White, color == PlayBlack && side != chess.Black:
						t.Errorf("%v %v %v: the user plays %v", level, control, color, side)
					}
					if snap.Kind != Practice || snap.Control != control || snap.Status != game.Active || snap.Stake != 0 {
						t.Errorf("%v %v %v: kind %v control %v status %v stake %d", level, control, color, snap.Kind, snap.Control, snap.Status, snap.Stake)
					}
					if snap.DisconnectGrace != game.DefaultDisconnectGrace {
						t.Errorf("%v %v %v: disconnection grace %v, want the default", level, control, color, snap.DisconnectGrace)
					}
					if snap.Clocks.Timed != control.Timed() {
						t.Errorf("%v %v %v: timed clocks %v", level, control, color, snap.Clocks.Timed)
					}
					if err := s.Leave(ctx, id, user); err != nil {
						t.Fatal(err)
					}
					synctest.Wait()
				}
			}
		}
		// A random colour gives either side.
		var sides [2]int
		for range 40 {
			id, err := s.CreatePracticeGame(ctx, user, game.Easy, clock.Untimed, RandomColor)
			if err != nil {
				t.Fatal(err)
			}
			snap, _ := s.Game(ctx, id)
			side, _ := snap.SideOf(user)
			sides[side]++
			if err := s.Leave(ctx, id, user); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
		}
		if sides[chess.White] == 0 || sides[chess.Black] == 0 {
			t.Errorf("40 random colours: %d White, %d Black", sides[chess.White], sides[chess.Black])
		}
		for _, bad := range []struct {
			level   game.Level
			control clock.Control
		}{{game.Hard + 1, clock.Untimed}, {game.NoBot, clock.Untimed}, {game.Easy, clock.MustParse("2+1")}} {
			if _, err := s.CreatePracticeGame(ctx, user, bad.level, bad.control, PlayWhite); !errors.Is(err, ErrInvalid) {
				t.Errorf("practice at %v with %v = %v, want ErrInvalid", bad.level, bad.control, err)
			}
		}
	})
}
