package game

import (
	"testing"
	"time"

	"satranc/engine/chess"
)

// TestClocksRunTo: only the running clock counts down, from At, and never
// below zero; a stopped clock, an untimed game or an earlier moment change
// nothing.
func TestClocksRunTo(t *testing.T) {
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	running := Clocks{Timed: true, White: 60 * time.Second, Black: 30 * time.Second, Running: true, Side: chess.Black, At: at}
	for _, tc := range []struct {
		name string
		c    Clocks
		now  time.Time
		want Clocks
	}{
		{"black runs", running, at.Add(10 * time.Second),
			Clocks{Timed: true, White: 60 * time.Second, Black: 20 * time.Second, Running: true, Side: chess.Black, At: at.Add(10 * time.Second)}},
		{"not below zero", running, at.Add(time.Minute),
			Clocks{Timed: true, White: 60 * time.Second, Black: 0, Running: true, Side: chess.Black, At: at.Add(time.Minute)}},
		{"earlier", running, at.Add(-time.Second), running},
		{"stopped", Clocks{Timed: true, White: time.Second, Black: time.Second, At: at}, at.Add(time.Hour),
			Clocks{Timed: true, White: time.Second, Black: time.Second, At: at}},
		{"untimed", Clocks{Running: true, At: at}, at.Add(time.Hour), Clocks{Running: true, At: at}},
	} {
		if got := tc.c.RunTo(tc.now); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
