package views

import (
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/lobby"
	"satranc/engine/play"
)

func TestLeaderboardViewMe(t *testing.T) {
	top := []lobby.Standing{{Rank: 1, User: 5}, {Rank: 2, User: 2}}
	if v := NewLeaderboardView(top, &lobby.Standing{Rank: 2, User: 2}); v.Me != nil || v.Viewer != 2 {
		t.Errorf("viewer in the top: Me = %+v, want nil", v.Me)
	}
	if v := NewLeaderboardView(top, &lobby.Standing{Rank: 140, User: 9}); v.Me == nil || v.Me.Rank != 140 {
		t.Errorf("viewer outside the top: Me = %+v, want rank 140", v.Me)
	}
	if v := NewLeaderboardView(top, nil); v.Me != nil || v.Viewer != 0 {
		t.Errorf("guest: %+v", v)
	}
}

func TestScoreOf(t *testing.T) {
	voidedAt := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		g    play.GameRecord
		side chess.Color
		want string
	}{
		{"win", play.GameRecord{Status: game.Finished, Outcome: game.Outcome{Result: game.WhiteWins}}, chess.White, "win"},
		{"loss", play.GameRecord{Status: game.Finished, Outcome: game.Outcome{Result: game.WhiteWins}}, chess.Black, "loss"},
		{"draw", play.GameRecord{Status: game.Finished, Outcome: game.Outcome{Result: game.Draw}}, chess.Black, "draw"},
		{"aborted", play.GameRecord{Status: game.Aborted, Outcome: game.Outcome{Result: game.BlackWins}}, chess.Black, "aborted"},
		{"voided win", play.GameRecord{Status: game.Finished, Outcome: game.Outcome{Result: game.BlackWins}, VoidedAt: voidedAt}, chess.Black, "voided"},
	}
	for _, tc := range tests {
		if got := scoreOf(tc.g, tc.side); got != tc.want {
			t.Errorf("%s: scoreOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}
