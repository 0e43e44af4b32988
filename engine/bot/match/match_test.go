package match

import (
	"context"
	"math"
	"os/exec"
	"testing"
	"time"

	"satranc/engine/bot"
	"satranc/engine/chess"
)

func TestOpeningsLegal(t *testing.T) {
	seen := map[string]bool{}
	for i, line := range Openings {
		p := chess.StartPosition()
		for _, s := range line {
			m, err := p.ParseUCI(s)
			if err != nil {
				t.Fatalf("opening %d %v: %v", i, line, err)
			}
			p = p.Play(m)
		}
		if seen[p.FEN()] {
			t.Errorf("opening %d %v repeats an earlier one", i, line)
		}
		seen[p.FEN()] = true
	}
}

func TestStatsElo(t *testing.T) {
	tests := []struct {
		s         Stats
		diff      float64
		lowBelow  float64
		highAbove float64
	}{
		{Stats{Wins: 50, Draws: 0, Losses: 50}, 0, -1, 1},
		{Stats{Wins: 60, Draws: 30, Losses: 10}, 190.85, 190, 191},
		{Stats{Wins: 10, Draws: 30, Losses: 60}, -190.85, -191, -190},
	}
	for _, tc := range tests {
		d, lo, hi := tc.s.Elo()
		if math.Abs(d-tc.diff) > 0.1 || lo >= tc.lowBelow || hi <= tc.highAbove {
			t.Errorf("%v.Elo() = %.2f [%.2f, %.2f], want %.2f inside a wider interval", tc.s, d, lo, hi, tc.diff)
		}
	}
	if d, _, _ := (Stats{Wins: 3}).Elo(); !math.IsInf(d, 1) {
		t.Errorf("Elo of a clean sweep = %v, want +Inf", d)
	}
}

func TestParseControl(t *testing.T) {
	c, err := ParseControl("10+0.1")
	if err != nil || c.Base != 10*time.Second || c.Increment != 100*time.Millisecond || c.String() != "10+0.1" {
		t.Errorf("ParseControl(10+0.1) = %v, %v", c, err)
	}
	for _, bad := range []string{"", "x+1", "-3+0", "10+y"} {
		if _, err := ParseControl(bad); err == nil {
			t.Errorf("ParseControl(%q) succeeded", bad)
		}
	}
}

// checkGame replays a finished game and checks its moves and result.
func checkGame(t *testing.T, g Game) {
	t.Helper()
	p := chess.StartPosition()
	for _, s := range Openings[g.Opening] {
		m, _ := p.ParseUCI(s)
		p = p.Play(m)
	}
	if len(g.Moves) < len(Openings[g.Opening]) {
		t.Fatalf("game has %d moves, fewer than its opening", len(g.Moves))
	}
	p = chess.StartPosition()
	for i, m := range g.Moves {
		if _, err := p.ParseUCI(m.String()); err != nil {
			t.Fatalf("move %d %s: %v", i+1, m, err)
		}
		p = p.Play(m)
	}
	switch g.Result {
	case "1-0", "0-1", "1/2-1/2":
	default:
		t.Errorf("result %q", g.Result)
	}
	if g.Reason == "" || len(g.Reason) > 12 && g.Reason[:12] == "illegal move" {
		t.Errorf("game ended by %q", g.Reason)
	}
}

// TestSmokeMatch plays a few very fast games between neighbouring levels,
// with small node limits so that it stays quick under the race detector.
func TestSmokeMatch(t *testing.T) {
	lim := bot.Limits{Nodes: 400}
	pairs := [][2]bot.Level{{bot.Easy, bot.Medium}, {bot.Medium, bot.Hard}, {bot.Hard, bot.Max}}
	for _, pair := range pairs {
		a, b := NewBotLimited(pair[0], lim), NewBotLimited(pair[1], lim)
		var games []Game
		st, err := Run(context.Background(), a, b, Options{
			Games:    2,
			Control:  Control{Base: time.Minute},
			MaxPlies: 40,
			Progress: func(g Game, _ Stats) { games = append(games, g) },
		})
		if err != nil {
			t.Fatal(err)
		}
		if st.Games() != 2 || len(games) != 2 {
			t.Fatalf("%s v %s: %d games, want 2", a.Name(), b.Name(), st.Games())
		}
		for _, g := range games {
			checkGame(t, g)
		}
		t.Logf("%s v %s: %s", a.Name(), b.Name(), st)
	}
}

// TestRunSkipContinues checks that a continued match plays the openings
// and colours the same games have in one longer match.
func TestRunSkipContinues(t *testing.T) {
	a, b := NewBotLimited(bot.Easy, bot.Limits{Nodes: 200}), NewBotLimited(bot.Medium, bot.Limits{Nodes: 200})
	var games []Game
	_, err := Run(context.Background(), a, b, Options{
		Games: 2, Skip: 3, Control: Control{Base: time.Minute}, MaxPlies: 4,
		Progress: func(g Game, _ Stats) { games = append(games, g) },
	})
	if err != nil {
		t.Fatal(err)
	}
	// Game 3 (from 0) is opening 1 with b as White, game 4 opening 2 with a.
	if len(games) != 2 || games[0].Opening != 1 || games[0].White != b.Name() ||
		games[1].Opening != 2 || games[1].White != a.Name() {
		t.Fatalf("continued games: %+v", games)
	}
}

// TestPlayAdjudicates checks the endings the runner decides.
func TestPlayAdjudicates(t *testing.T) {
	a, b := NewBotLimited(bot.Max, bot.Limits{Depth: 3}), NewBotLimited(bot.Max, bot.Limits{Depth: 3})
	// Fool's mate: the opening itself ends the game.
	g, err := Play(context.Background(), a, b, []string{"f2f3", "e7e5", "g2g4", "d8h4"}, Control{Base: time.Minute}, 10)
	if err != nil || g.Result != "0-1" || g.Reason != "checkmate" {
		t.Errorf("fool's mate: %q by %q, %v; want 0-1 by checkmate", g.Result, g.Reason, err)
	}
	// No time at all: White's first move flags.
	g, err = Play(context.Background(), a, b, nil, Control{Base: time.Nanosecond}, 10)
	if err != nil || g.Result != "0-1" || g.Reason != "time" {
		t.Errorf("no time: %q by %q, %v; want 0-1 on time", g.Result, g.Reason, err)
	}
	// The move limit draws.
	g, err = Play(context.Background(), a, b, nil, Control{Base: time.Minute}, 2)
	if err != nil || g.Result != "1/2-1/2" || g.Reason != "move limit" || len(g.Moves) != 2 {
		t.Errorf("move limit: %q by %q after %d plies, %v", g.Result, g.Reason, len(g.Moves), err)
	}
}

// TestUCIStockfish plays one short game against Stockfish through the UCI
// client when a stockfish program is on PATH; it is skipped otherwise.
func TestUCIStockfish(t *testing.T) {
	path, err := exec.LookPath("stockfish")
	if err != nil || testing.Short() {
		t.Skip("no stockfish on PATH")
	}
	ctx := context.Background()
	sf, err := StartUCI(ctx, path, nil, map[string]string{"UCI_LimitStrength": "true", "UCI_Elo": "1350", "Threads": "1", "Hash": "16"})
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	var games []Game
	if _, err := Run(ctx, NewBotLimited(bot.Medium, bot.Limits{Nodes: 400}), sf, Options{
		Games: 1, Control: Control{Base: 2 * time.Second, Increment: 20 * time.Millisecond}, MaxPlies: 30,
		Progress: func(g Game, _ Stats) { games = append(games, g) },
	}); err != nil {
		t.Fatal(err)
	}
	checkGame(t, games[0])
}
