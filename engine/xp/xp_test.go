package xp

import "testing"

func TestLevel(t *testing.T) {
	tests := []struct{ xp, level int }{{-5, 1}, {0, 1}, {99, 2 - 1}, {100, 2}, {150, 2}, {1000, 11}}
	for _, tc := range tests {
		if got := Level(tc.xp); got != tc.level {
			t.Errorf("Level(%d) = %d, want %d", tc.xp, got, tc.level)
		}
	}
	if got := Award(true); got != 15 {
		t.Errorf("Award(true) = %d, want 15", got)
	}
	if got := Award(false); got != 10 {
		t.Errorf("Award(false) = %d, want 10", got)
	}
	if into, need := Progress(250); into != 50 || need != 100 {
		t.Errorf("Progress(250) = %d, %d, want 50, 100", into, need)
	}
}
