//go:build calibration

package match

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"satranc/engine/chess"
)

// The accuracy analysis replays games saved by TestCalibrate's -pgn and
// measures each engine's average centipawn loss and blunders with
// Stockfish at a fixed depth:
//
//	go test -tags calibration -run Accuracy -timeout 0 -v ./engine/bot/match \
//	    -args -games-file easy.tsv,medium.tsv -depth 12
//
// Every position from ply -skip-plies on (the opening lines of the
// matches are at most 8 plies) is searched to -depth, from the side to
// move's point of view; the evaluation is capped at ±-cap centipawns, and
// a mate, for or against, counts as the cap (lichess caps at 1000 in the
// same way for its ACPL). A move's loss is the capped evaluation before it
// less the capped evaluation after it, both for the side that moved, and
// never below zero. A checkmating move leaves the cap; a move that ends
// the game drawn by the rules (stalemate, repetition, fifty moves,
// insufficient material) leaves 0. A blunder is a loss of at least
// -blunder centipawns. The ACPL is also given over the moves made in a
// balanced position (within ±-balanced centipawns before the move), as
// Coulombe's study of lichess games counts it, since a side already lost
// loses little more by the cap.
var (
	flagGamesFile = flag.String("games-file", "", "files written by -pgn, comma-separated")
	flagDepth     = flag.Int("depth", 12, "Stockfish's search depth for each position")
	flagSkipPlies = flag.Int("skip-plies", 8, "plies of each game not analysed (the opening)")
	flagCap       = flag.Int("cap", 1000, "centipawns: evaluations are capped at ±cap, mates count as the cap")
	flagBlunder   = flag.Int("blunder", 300, "centipawns lost that make a blunder")
	flagPerFile   = flag.Int("per-file", 0, "analyse at most this many games of each file (0: all)")
	flagBalanced  = flag.Int("balanced", 300, "centipawns: a position within ±balanced counts as balanced")
)

// accuracy is one engine's tally.
type accuracy struct {
	games, moves, blunders, mistakes int
	loss                             int
	balancedMoves, balancedLoss      int
	perGame                          []float64 // each game's ACPL
}

func TestAccuracy(t *testing.T) {
	if *flagGamesFile == "" {
		t.Skip("no -games-file")
	}
	ctx := context.Background()
	path, err := exec.LookPath(*flagStockfish)
	if err != nil {
		t.Fatalf("stockfish: %v", err)
	}
	sf, err := StartUCI(ctx, path, nil, map[string]string{"Threads": "1", "Hash": "64"})
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	tally := map[string]*accuracy{}
	for _, file := range strings.Split(*flagGamesFile, ",") {
		games, err := readGames(file)
		if err != nil {
			t.Fatal(err)
		}
		if *flagPerFile > 0 && len(games) > *flagPerFile {
			games = games[:*flagPerFile]
		}
		for gi, g := range games {
			evals, err := evaluateGame(ctx, sf, g.moves)
			if err != nil {
				t.Fatalf("%s game %d: %v", file, gi+1, err)
			}
			names := [2]string{g.white, g.black}
			var game [2]struct{ moves, loss int }
			for ply := *flagSkipPlies; ply < len(g.moves); ply++ {
				side := ply % 2
				loss := max(0, evals[ply]+evals[ply+1]) // evals[ply+1] is the opponent's
				a := tally[names[side]]
				if a == nil {
					a = &accuracy{}
					tally[names[side]] = a
				}
				a.moves++
				a.loss += loss
				if evals[ply] <= *flagBalanced && evals[ply] >= -*flagBalanced {
					a.balancedMoves++
					a.balancedLoss += loss
				}
				if loss >= *flagBlunder {
					a.blunders++
				} else if loss >= 100 {
					a.mistakes++
				}
				game[side].moves++
				game[side].loss += loss
			}
			for side, n := range names {
				if a := tally[n]; a != nil && game[side].moves > 0 {
					a.games++
					a.perGame = append(a.perGame, float64(game[side].loss)/float64(game[side].moves))
				}
			}
			t.Logf("%s game %d: %s v %s, %d plies analysed", file, gi+1, g.white, g.black, len(g.moves)-*flagSkipPlies)
		}
	}
	names := make([]string, 0, len(tally))
	for n := range tally {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := tally[n]
		sort.Float64s(a.perGame)
		t.Logf("ACCURACY %s (Stockfish depth %d, from ply %d, cap %d): games %d, moves %d, ACPL %.1f (median game %.1f), in balanced positions (±%d) %.1f over %d moves, blunders (>=%d cp) %d = %.2f per game, mistakes (100-%d cp) %.2f per game",
			n, *flagDepth, *flagSkipPlies, *flagCap, a.games, a.moves, float64(a.loss)/float64(a.moves), a.perGame[len(a.perGame)/2],
			*flagBalanced, float64(a.balancedLoss)/float64(max(a.balancedMoves, 1)), a.balancedMoves,
			*flagBlunder, a.blunders, float64(a.blunders)/float64(a.games), *flagBlunder-1, float64(a.mistakes)/float64(a.games))
	}
}

type savedGame struct {
	white, black string
	moves        []string
}

// readGames reads the lines TestCalibrate's -pgn writes: white, black,
// result, reason and the moves in UCI from the start, tab-separated.
func readGames(file string) ([]savedGame, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var games []savedGame
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 5 {
			continue
		}
		games = append(games, savedGame{white: fields[0], black: fields[1], moves: strings.Fields(fields[4])})
	}
	return games, sc.Err()
}

// evaluateGame returns the capped evaluation of every position of the
// game, from the side to move's point of view: evals[i] is the position
// before move i, evals[len(moves)] the final one. Positions before the
// analysed plies are left at 0.
func evaluateGame(ctx context.Context, sf *UCI, moves []string) ([]int, error) {
	g := chess.NewGame(chess.StartPosition())
	for _, s := range moves {
		p := g.Position()
		m, err := p.ParseUCI(s)
		if err != nil {
			return nil, err
		}
		if err := g.Play(m); err != nil {
			return nil, err
		}
	}
	limit := *flagCap
	evals := make([]int, len(moves)+1)
	for ply := max(*flagSkipPlies, 0); ply <= len(moves); ply++ {
		if ply == len(moves) && g.Termination() != chess.NoTermination {
			if g.Termination() == chess.Checkmate {
				evals[ply] = -limit // the side to move is mated
			}
			break
		}
		cmd := "position startpos"
		if ply > 0 {
			cmd += " moves " + strings.Join(moves[:ply], " ")
		}
		sf.send(cmd)
		sf.send(fmt.Sprintf("go depth %d", *flagDepth))
		score, err := sf.searchScore(ctx)
		if err != nil {
			return nil, err
		}
		evals[ply] = max(-limit, min(limit, score))
	}
	return evals, nil
}

// searchScore reads a search's output up to bestmove and returns the last
// score reported, in centipawns, a mate as ±100,000.
func (e *UCI) searchScore(ctx context.Context) (int, error) {
	score := 0
	timeout := time.After(5 * time.Minute)
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				return 0, fmt.Errorf("%w: %s exited", ErrEngine, e.name)
			}
			if strings.HasPrefix(line, "bestmove") {
				return score, nil
			}
			f := strings.Fields(line)
			for i := 0; i+2 < len(f); i++ {
				if f[i] != "score" {
					continue
				}
				n, err := strconv.Atoi(f[i+2])
				if err != nil {
					break
				}
				switch f[i+1] {
				case "cp":
					score = n
				case "mate":
					score = 100_000
					if n <= 0 {
						score = -100_000
					}
				}
			}
		case <-timeout:
			return 0, fmt.Errorf("%w: %s: no bestmove", ErrEngine, e.name)
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}
