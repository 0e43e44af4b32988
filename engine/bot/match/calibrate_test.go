//go:build calibration

package match

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"satranc/engine/bot"
)

// The calibration match is a manual command, not part of `go test ./...`:
//
//	go test -tags calibration -run Calibrate -timeout 0 -v ./engine/bot/match \
//	    -args -a hard -b stockfish:1700 -games 200 -tc 10+0.1
//
// An engine is a level (easy, medium, hard, max), played in-process, or
// stockfish:ELO, Stockfish on PATH (or -stockfish) limited to UCI_Elo ELO,
// or stockfish for its full strength.
var (
	flagA         = flag.String("a", "hard", "first engine")
	flagB         = flag.String("b", "stockfish:1700", "second engine")
	flagGames     = flag.Int("games", 200, "games to play (an even number)")
	flagTC        = flag.String("tc", "10+0.1", "time control, seconds+increment")
	flagMaxPlies  = flag.Int("maxplies", 400, "plies after the opening before a draw is declared")
	flagStockfish = flag.String("stockfish", "stockfish", "the Stockfish program")
	flagPGN       = flag.String("pgn", "", "file to append the games to, as UCI move lists")
	flagSkip      = flag.Int("skip", 0, "games of an earlier run to skip, to continue it with the same openings, colours and seeds")
)

func openEngine(ctx context.Context, t *testing.T, spec string) Engine {
	if l, err := bot.ParseLevel(spec); err == nil {
		return NewBot(l)
	}
	name, elo, limited := strings.Cut(spec, ":")
	if name != "stockfish" {
		t.Fatalf("unknown engine %q", spec)
	}
	path, err := exec.LookPath(*flagStockfish)
	if err != nil {
		t.Fatalf("stockfish: %v", err)
	}
	// A Move Overhead above the default 10 ms keeps Stockfish from losing
	// on time when the machine is busy. Not much more: Stockfish 15.1
	// reserves it for each of the next 50 moves, so 200 ms at 5+0.05 would
	// leave it almost no time at all.
	opts := map[string]string{"Threads": "1", "Hash": "16", "Move Overhead": "40"}
	if limited {
		opts["UCI_LimitStrength"] = "true"
		opts["UCI_Elo"] = elo
	}
	e, err := StartUCI(ctx, path, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestCalibrate(t *testing.T) {
	ctx := context.Background()
	ctl, err := ParseControl(*flagTC)
	if err != nil {
		t.Fatal(err)
	}
	a, b := openEngine(ctx, t, *flagA), openEngine(ctx, t, *flagB)
	defer a.Close()
	defer b.Close()
	var pgn *os.File
	if *flagPGN != "" {
		if pgn, err = os.OpenFile(*flagPGN, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
			t.Fatal(err)
		}
		defer pgn.Close()
	}
	reasons := map[string]int{}
	st, err := Run(ctx, a, b, Options{
		Games: *flagGames, Skip: *flagSkip, Control: ctl, MaxPlies: *flagMaxPlies,
		Progress: func(g Game, st Stats) {
			r := g.Reason
			if strings.HasPrefix(r, "illegal") {
				r = "illegal"
			}
			reasons[r]++
			t.Logf("game %d: %s v %s %s (%s, %d plies); %s v %s: %s",
				st.Games(), g.White, g.Black, g.Result, g.Reason, len(g.Moves), a.Name(), b.Name(), st)
			if pgn != nil {
				var moves []string
				for _, m := range g.Moves {
					moves = append(moves, m.String())
				}
				fmt.Fprintf(pgn, "%s\t%s\t%s\t%s\t%s\n", g.White, g.Black, g.Result, g.Reason, strings.Join(moves, " "))
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	d, lo, hi := st.Elo()
	t.Logf("RESULT %s v %s at %s: games %d, +%d =%d -%d, score %.1f%%, Elo %+.0f (95%% %+.0f..%+.0f); endings %v",
		a.Name(), b.Name(), ctl, st.Games(), st.Wins, st.Draws, st.Losses, 100*st.Score(), d, lo, hi, reasons)
}
