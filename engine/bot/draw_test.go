package bot

import (
	"context"
	"testing"

	"satranc/engine/chess"
)

func TestAcceptsDraw(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		score int
		want  bool
	}{
		{"opening, equal", chess.StartFEN, 0, false},
		{"opening, clearly worse", chess.StartFEN, -200, true},
		{"opening, a little worse", chess.StartFEN, -60, false},
		{"opening, mated", chess.StartFEN, -mateScore + 10, true},
		{"opening, better", chess.StartFEN, 300, false},
		{"endgame, dead equal", "8/5k2/8/3r4/8/3R4/5K2/8 w - - 0 30", 10, true},
		{"rook against rook, a little better: dead drawn", "8/5k2/8/3r4/8/3R4/5K2/8 w - - 0 30", 80, true},
		{"rook against rook, clearly better", "8/5k2/8/3r4/8/3R4/5K2/8 w - - 0 30", 150, false},
		{"rook endgame with pawns, a little better", "8/5kp1/8/3r4/8/3R4/5KP1/8 w - - 0 30", 80, false},
		{"opposite bishops, a pawn up", "8/5kp1/8/3b4/8/4B3/5KPP/8 w - - 0 30", 90, true},
		{"same-coloured bishops, a pawn up", "8/5kp1/8/4b3/8/4B3/5KPP/8 w - - 0 30", 90, false},
		{"dead drawn but a mate seen", "8/5k2/8/3r4/8/3R4/5K2/8 w - - 0 30", mateScore - 5, false},
		{"move 45, dead equal", "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 45", -5, true},
	}
	for _, tc := range tests {
		p, err := chess.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := AcceptsDraw(p, tc.score); got != tc.want {
			t.Errorf("%s: AcceptsDraw(%q, %d) = %v, want %v", tc.name, tc.fen, tc.score, got, tc.want)
		}
	}
}

// TestAnswerDraw: the bot's own search decides, from its own side.
func TestAnswerDraw(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		side chess.Color
		want bool
	}{
		{"start, White", chess.StartFEN, chess.White, false},
		{"start, Black", chess.StartFEN, chess.Black, false},
		// White has an extra queen: Black accepts, White declines,
		// whoever is to move.
		{"queen down, to move", "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 20", chess.Black, true},
		{"queen down, not to move", "4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 20", chess.Black, true},
		{"queen up", "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 20", chess.White, false},
		// Bare kings and symmetrical rooks: dead equal and late.
		{"rook endgame", "8/5k2/8/3r4/8/3R4/5K2/8 w - - 0 30", chess.Black, true},
	}
	for _, tc := range tests {
		p, err := chess.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []Level{Easy, Hard} {
			if got := New(l, 1).AnswerDraw(context.Background(), p, nil, tc.side); got != tc.want {
				t.Errorf("%s: %s AnswerDraw(%q, %s) = %v, want %v", tc.name, l, tc.fen, tc.side, got, tc.want)
			}
		}
	}
}
