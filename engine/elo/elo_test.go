package elo

import (
	"math"
	"testing"

	"satranc/engine/game"
)

func TestExpected(t *testing.T) {
	tests := []struct {
		name      string
		own, opp  int
		want      float64
		tolerance float64
	}{
		{"equal", 1200, 1200, 0.5, 1e-12},
		{"400 above", 1600, 1200, 10.0 / 11, 1e-12},
		{"400 below", 1200, 1600, 1.0 / 11, 1e-12},
		{"200 below", 1200, 1400, 1 / (1 + math.Sqrt(10)), 1e-12},
		{"vs easy bot", 1200, 800, 10.0 / 11, 1e-12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Expected(tc.own, tc.opp); math.Abs(got-tc.want) > tc.tolerance {
				t.Errorf("Expected(%d, %d) = %v, want %v", tc.own, tc.opp, got, tc.want)
			}
			if sum := Expected(tc.own, tc.opp) + Expected(tc.opp, tc.own); math.Abs(sum-1) > 1e-12 {
				t.Errorf("Expected both ways sums to %v, want 1", sum)
			}
		})
	}
}

// The worked examples: expected score from SPEC's formula, then
// own + K × (score − expected), rounded.
func TestNew(t *testing.T) {
	tests := []struct {
		name            string
		own, opp, rated int
		score           Score
		want            int
	}{
		// 40 × (1 − 0.5) = 20.
		{"first game, equal, win", 1200, 1200, 0, Win, 1220},
		{"first game, equal, loss", 1200, 1200, 0, Loss, 1180},
		{"first game, equal, draw", 1200, 1200, 0, Draw, 1200},
		// 30th rated game (29 before it): still K = 40.
		{"30th game win", 1500, 1500, 29, Win, 1520},
		// 31st rated game (30 before it): K = 20, 20 × 0.5 = 10.
		{"31st game win", 1500, 1500, 30, Win, 1510},
		{"31st game loss", 1500, 1500, 30, Loss, 1490},
		{"100th game draw", 1500, 1500, 99, Draw, 1500},
		// vs the Easy bot (800): expected = 10/11 = 0.90909;
		// 40 × (1 − 0.90909) = 3.636 → 4; 40 × (0 − 0.90909) = −36.36 → −36.
		{"beats easy bot", 1200, 800, 0, Win, 1204},
		{"loses to easy bot", 1200, 800, 0, Loss, 1164},
		// draw: 40 × (0.5 − 0.90909) = −16.36 → −16.
		{"draws easy bot", 1200, 800, 0, Draw, 1184},
		// vs Medium (1300): expected = 1/(1+10^0.25) = 0.35993;
		// 40 × 0.64007 = 25.60 → 26; 20 × 0.64007 = 12.80 → 13.
		{"beats medium bot, new", 1200, 1300, 5, Win, 1226},
		{"beats medium bot, established", 1200, 1300, 30, Win, 1213},
		// vs Hard (1700): expected = 1/(1+10^1.25) = 0.05324;
		// 40 × (0 − 0.05324) = −2.13 → −2; 40 × 0.94676 = 37.87 → 38.
		{"loses to hard bot", 1200, 1700, 0, Loss, 1198},
		{"beats hard bot", 1200, 1700, 0, Win, 1238},
		// 1613 v 1573, FIDE-style example: expected = 0.55735;
		// 20 × (0 − 0.55735) = −11.15 → −11.
		{"established loss to lower", 1613, 1573, 40, Loss, 1602},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := New(tc.own, tc.opp, tc.rated, tc.score); got != tc.want {
				t.Errorf("New(%d, %d, %d, %v) = %d, want %d", tc.own, tc.opp, tc.rated, tc.score, got, tc.want)
			}
		})
	}
}

func TestK(t *testing.T) {
	for rated, want := range map[int]int{0: 40, 1: 40, 29: 40, 30: 20, 31: 20, 500: 20} {
		if got := K(rated); got != want {
			t.Errorf("K(%d) = %d, want %d", rated, got, want)
		}
	}
}

func TestBotRating(t *testing.T) {
	for _, tc := range []struct {
		level game.Level
		want  int
	}{{game.Easy, 800}, {game.Medium, 1300}, {game.Hard, 1700}, {game.NoBot, 0}} {
		if got := BotRating(tc.level); got != tc.want {
			t.Errorf("BotRating(%v) = %d, want %d", tc.level, got, tc.want)
		}
	}
}
