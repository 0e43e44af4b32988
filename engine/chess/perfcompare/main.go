// Command perfcompare measures Satranç's move generator side by side with
// peers on the same machine, single-threaded, with bulk counting (the last
// ply is counted, not played): perft 6 from the start position and perft 5
// from Kiwipete. It lives in a module of its own so that the peers never
// enter the product's go.mod.
//
//	cd engine/chess/perfcompare && go run . -runs 5 -stockfish "$(command -v stockfish)"
//
// Peers: github.com/corentings/chess/v2 (a maintained fork of notnil/chess)
// and, when -stockfish names its binary, Stockfish's own `go perft`, timed
// from the command to its "Nodes searched" line so that start-up is not
// counted.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	notnil "github.com/corentings/chess/v2"

	"satranc/engine/chess"
)

type testCase struct {
	name  string
	fen   string
	depth int
	nodes uint64 // the known count, to check every engine
}

var cases = []testCase{
	{"start, perft 6", chess.StartFEN, 6, 119060324},
	{"kiwipete, perft 5", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690},
}

// engine runs one perft and returns the node count.
type engine struct {
	name  string
	perft func(fen string, depth int) (uint64, time.Duration, error)
}

func main() {
	runs := flag.Int("runs", 3, "runs per case; the fastest counts")
	stockfish := flag.String("stockfish", "", "path of a Stockfish binary to compare with (optional)")
	skipSlow := flag.Bool("skip-slow", false, "skip the slow peer (corentings/chess)")
	flag.Parse()

	engines := []engine{{"satranc", satrancPerft}}
	if !*skipSlow {
		engines = append(engines, engine{"corentings/chess v2", notnilPerft})
	}
	if *stockfish != "" {
		sf, err := startStockfish(*stockfish)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer sf.close()
		engines = append(engines, engine{"stockfish " + sf.version, sf.perft})
	}

	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tengine\tnodes\tbest time\tMnodes/s\tcount\t")
	for _, c := range cases {
		for _, e := range engines {
			best := time.Duration(0)
			var nodes uint64
			for range *runs {
				n, d, err := e.perft(c.fen, c.depth)
				if err != nil {
					fmt.Fprintf(os.Stderr, "%s: %s: %v\n", e.name, c.name, err)
					os.Exit(1)
				}
				if best == 0 || d < best {
					best, nodes = d, n
				}
			}
			verdict := "right"
			if nodes != c.nodes {
				verdict = fmt.Sprintf("WRONG (want %d)", c.nodes)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.3fs\t%.1f\t%s\t\n", c.name, e.name, nodes, best.Seconds(), float64(nodes)/best.Seconds()/1e6, verdict)
		}
	}
	tw.Flush()
}

func satrancPerft(fen string, depth int) (uint64, time.Duration, error) {
	p, err := chess.ParseFEN(fen)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	n := p.Perft(depth)
	return n, time.Since(start), nil
}

func notnilPerft(fen string, depth int) (uint64, time.Duration, error) {
	opt, err := notnil.FEN(fen)
	if err != nil {
		return 0, 0, err
	}
	pos := notnil.NewGame(opt).Position()
	start := time.Now()
	n := notnilCount(pos, depth)
	return n, time.Since(start), nil
}

func notnilCount(pos *notnil.Position, depth int) uint64 {
	moves := pos.ValidMoves()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for i := range moves {
		n += notnilCount(pos.Update(&moves[i]), depth-1)
	}
	return n
}

// stockfishProcess talks UCI to a running Stockfish.
type stockfishProcess struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Scanner
	version string
}

func startStockfish(path string) (*stockfishProcess, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start stockfish: %w", err)
	}
	sf := &stockfishProcess{cmd: cmd, in: in, out: bufio.NewScanner(outPipe)}
	fmt.Fprintln(in, "uci")
	for sf.out.Scan() {
		line := sf.out.Text()
		if name, ok := strings.CutPrefix(line, "id name Stockfish "); ok {
			sf.version = name
		}
		if line == "uciok" {
			break
		}
	}
	fmt.Fprintln(in, "setoption name Threads value 1")
	return sf, nil
}

func (sf *stockfishProcess) perft(fen string, depth int) (uint64, time.Duration, error) {
	fmt.Fprintf(sf.in, "position fen %s\nisready\n", fen)
	for sf.out.Scan() && sf.out.Text() != "readyok" {
	}
	start := time.Now()
	fmt.Fprintf(sf.in, "go perft %d\n", depth)
	for sf.out.Scan() {
		if s, ok := strings.CutPrefix(sf.out.Text(), "Nodes searched: "); ok {
			d := time.Since(start)
			n, err := strconv.ParseUint(s, 10, 64)
			return n, d, err
		}
	}
	return 0, 0, fmt.Errorf("stockfish: no node count: %v", sf.out.Err())
}

func (sf *stockfishProcess) close() {
	fmt.Fprintln(sf.in, "quit")
	sf.in.Close()
	sf.cmd.Wait()
}
