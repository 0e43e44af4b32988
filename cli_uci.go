package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"satranc/engine/bot"
	"satranc/engine/chess"
)

// runUCI plays as a UCI engine on stdin and stdout:
//
//	satranc uci [--level easy|medium|hard|max] [--seed N]
//
// It speaks the UCI protocol (https://www.shredderchess.com/download/div/uci.zip)
// as DESIGN.md lists it, plus Stockfish's `go perft N` and `d`. Unknown
// commands are ignored, as the protocol asks; a malformed position is
// reported as an `info string` and leaves the previous position in place.
func runUCI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("uci", flag.ContinueOnError)
	fs.SetOutput(stderr)
	levelName := fs.String("level", "max", "strength: easy, medium, hard or max")
	seed := fs.Uint64("seed", 0, "seed of the random choices (0: a new one each run)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	level, err := bot.ParseLevel(*levelName)
	if err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "satranc uci: --level must be easy, medium, hard or max")
		return 2
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	u := &uciSession{
		out:   &lockedWriter{w: stdout},
		level: level,
		hash:  16,
		seeds: rand.New(rand.NewPCG(*seed, 0x5a7)),
		pos:   chess.StartPosition(),
	}
	u.bot = bot.New(level, u.seeds.Uint64())
	return u.run(ctx, stdin)
}

// lockedWriter serialises the lines of the command loop and the search.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (lw *lockedWriter) printf(format string, args ...any) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	fmt.Fprintf(lw.w, format, args...)
}

// uciSession is the state of one `satranc uci` run.
type uciSession struct {
	out   *lockedWriter
	level bot.Level
	hash  int
	seeds *rand.Rand
	bot   *bot.Bot
	pos   chess.Position
	keys  []uint64 // Zobrist keys of the positions before pos

	// The running search, if any.
	cancel   context.CancelFunc
	done     chan struct{}
	infinite bool
	release  chan struct{} // closed by stop: an infinite search may answer
}

func (u *uciSession) run(ctx context.Context, stdin io.Reader) int {
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			u.stop()
			return 0
		case line, ok := <-lines:
			if !ok {
				// End of input: let a bounded search finish and answer.
				if u.done != nil && !u.infinite {
					<-u.done
				}
				u.stop()
				return 0
			}
			if !u.command(ctx, line) {
				u.stop()
				return 0
			}
		}
	}
}

// command runs one line and reports false on quit.
func (u *uciSession) command(ctx context.Context, line string) bool {
	fields := strings.Fields(line)
	// Skip unknown leading tokens, as the protocol says ("joho debug on").
	for len(fields) > 0 && !uciCommands[fields[0]] {
		fields = fields[1:]
	}
	if len(fields) == 0 {
		return true
	}
	cmd, args := fields[0], fields[1:]
	switch cmd {
	case "quit":
		return false
	case "uci":
		u.out.printf("id name Satranc %s\nid author the Satranç authors\n", buildVersion())
		u.out.printf("option name Level type combo default %s var easy var medium var hard var max\n", u.level)
		u.out.printf("option name Hash type spin default 16 min 1 max 1024\n")
		u.out.printf("uciok\n")
	case "isready":
		u.out.printf("readyok\n")
	case "debug", "register", "ponderhit":
		// Nothing to do.
	case "ucinewgame":
		u.wait()
		u.bot.NewGame(u.seeds.Uint64())
		u.pos, u.keys = chess.StartPosition(), nil
	case "setoption":
		u.wait()
		u.setOption(args)
	case "position":
		if err := u.position(args); err != nil {
			u.out.printf("info string error: %v\n", err)
		}
	case "go":
		u.wait()
		u.goCommand(ctx, args)
	case "stop":
		u.stop()
	case "d":
		u.display()
	}
	return true
}

var uciCommands = map[string]bool{
	"uci": true, "debug": true, "isready": true, "setoption": true, "register": true,
	"ucinewgame": true, "position": true, "go": true, "stop": true, "ponderhit": true,
	"quit": true, "d": true,
}

func (u *uciSession) setOption(args []string) {
	// setoption name <id> [value <x>]; names may contain spaces.
	var name, value []string
	var cur *[]string
	for _, a := range args {
		switch a {
		case "name":
			cur = &name
		case "value":
			cur = &value
		default:
			if cur != nil {
				*cur = append(*cur, a)
			}
		}
	}
	switch n, v := strings.ToLower(strings.Join(name, " ")), strings.Join(value, " "); n {
	case "level":
		l, err := bot.ParseLevel(v)
		if err != nil {
			u.out.printf("info string error: %v\n", err)
			return
		}
		u.level = l
		u.bot = bot.New(l, u.seeds.Uint64())
		u.bot.SetHash(u.hash)
	case "hash":
		mb, err := strconv.Atoi(v)
		if err != nil || mb < 1 || mb > 1024 {
			u.out.printf("info string error: Hash must be a number of megabytes from 1 to 1024\n")
			return
		}
		u.hash = mb
		u.bot.SetHash(mb)
	default:
		u.out.printf("info string unknown option %q\n", strings.Join(name, " "))
	}
}

// position sets up `position startpos|fen <FEN> [moves m1 m2 ...]`.
func (u *uciSession) position(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("position: want startpos or fen")
	}
	var p chess.Position
	rest := args[1:]
	switch args[0] {
	case "startpos":
		p = chess.StartPosition()
	case "fen":
		n := 0
		for n < len(rest) && rest[n] != "moves" {
			n++
		}
		var err error
		if p, err = chess.ParseFEN(strings.Join(rest[:n], " ")); err != nil {
			return err
		}
		rest = rest[n:]
	default:
		return fmt.Errorf("position: want startpos or fen, not %q", args[0])
	}
	var keys []uint64
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return fmt.Errorf("position: want moves, not %q", rest[0])
		}
		for _, s := range rest[1:] {
			m, err := p.ParseUCI(s)
			if err != nil {
				return err
			}
			keys = append(keys, p.Hash())
			p = p.Play(m)
		}
	}
	u.pos, u.keys = p, keys
	return nil
}

// goCommand starts a search (or runs perft) as `go` asks.
func (u *uciSession) goCommand(ctx context.Context, args []string) {
	var lim bot.Limits
	var clk bot.Clock
	var wtime, btime, winc, binc time.Duration
	timed, infinite := false, false
	for i := 0; i < len(args); i++ {
		next := func() int64 {
			if i+1 >= len(args) {
				return 0
			}
			i++
			n, err := strconv.ParseInt(args[i], 10, 64)
			if err != nil {
				u.out.printf("info string error: go %s: %q is not a number\n", args[i-1], args[i])
			}
			return n
		}
		ms := func() time.Duration { return time.Duration(next()) * time.Millisecond }
		switch args[i] {
		case "perft":
			u.perft(int(next()))
			return
		case "depth":
			lim.Depth = int(max(next(), 1))
		case "nodes":
			lim.Nodes = uint64(max(next(), 1))
		case "movetime":
			d := ms()
			lim.Hard = max(d-10*time.Millisecond, time.Millisecond)
			timed = true
		case "wtime":
			wtime, timed = ms(), true
		case "btime":
			btime, timed = ms(), true
		case "winc":
			winc = ms()
		case "binc":
			binc = ms()
		case "movestogo":
			clk.MovesToGo = int(next())
		case "infinite":
			infinite = true
		}
	}
	if wtime > 0 || btime > 0 {
		clk.Remaining, clk.Increment = wtime, winc
		if u.pos.SideToMove() == chess.Black {
			clk.Remaining, clk.Increment = btime, binc
		}
		clk.Remaining = max(clk.Remaining, time.Millisecond)
		soft, hard := bot.Budget(clk)
		lim.Soft = soft
		if lim.Hard == 0 || hard < lim.Hard {
			lim.Hard = hard
		}
	}
	if !timed && lim.Depth == 0 && lim.Nodes == 0 {
		infinite = true // a bare `go` searches until `stop`
	}

	sctx, cancel := context.WithCancel(ctx)
	u.cancel, u.done, u.infinite = cancel, make(chan struct{}), infinite
	u.release = make(chan struct{})
	pos, keys, b, done, release := u.pos, u.keys, u.bot, u.done, u.release
	go func() {
		defer close(done)
		res := b.Think(sctx, pos, keys, lim, u.info)
		if infinite {
			<-release // the protocol answers an infinite search only after stop
		}
		if res.Move == chess.NullMove {
			if pos.InCheck() {
				u.out.printf("info depth 0 score mate 0\n")
			} else {
				u.out.printf("info depth 0 score cp 0\n")
			}
			u.out.printf("bestmove (none)\n")
			return
		}
		if len(res.PV) >= 2 {
			u.out.printf("bestmove %s ponder %s\n", res.Move, res.PV[1])
		} else {
			u.out.printf("bestmove %s\n", res.Move)
		}
	}()
}

// info prints one completed iteration.
func (u *uciSession) info(in bot.Info) {
	score := fmt.Sprintf("cp %d", in.Score)
	if n, ok := bot.MateIn(in.Score); ok {
		score = fmt.Sprintf("mate %d", n)
	}
	ms := in.Time.Milliseconds()
	nps := uint64(0)
	if in.Time > 0 {
		nps = uint64(float64(in.Nodes) / in.Time.Seconds())
	}
	var pv strings.Builder
	for _, m := range in.PV {
		pv.WriteByte(' ')
		pv.WriteString(m.String())
	}
	u.out.printf("info depth %d seldepth %d score %s nodes %d nps %d time %d pv%s\n",
		in.Depth, in.SelDepth, score, in.Nodes, nps, ms, pv.String())
}

// stop ends the running search, if any, and waits for its bestmove.
func (u *uciSession) stop() {
	if u.done == nil {
		return
	}
	u.cancel()
	close(u.release)
	<-u.done
	u.done = nil
}

// wait lets a bounded search finish (an infinite one is stopped) before a
// command that changes what the search uses.
func (u *uciSession) wait() {
	if u.done != nil && !u.infinite {
		<-u.done
	}
	u.stop()
}

// perft prints the move counts below each root move, then the total, as
// Stockfish's `go perft` does.
func (u *uciSession) perft(depth int) {
	if depth < 1 || depth > 10 {
		u.out.printf("info string error: go perft wants a depth from 1 to 10\n")
		return
	}
	var total uint64
	var b strings.Builder
	for _, e := range u.pos.Divide(depth) {
		fmt.Fprintf(&b, "%s: %d\n", e.Move, e.Nodes)
		total += e.Nodes
	}
	u.out.printf("%s\nNodes searched: %d\n\n", b.String(), total)
}

// display prints the board, the FEN and the key, as Stockfish's `d` does.
func (u *uciSession) display() {
	var b strings.Builder
	b.WriteString("\n +---+---+---+---+---+---+---+---+\n")
	for r := 7; r >= 0; r-- {
		for f := range 8 {
			fmt.Fprintf(&b, " | %c", u.pos.PieceAt(chess.NewSquare(f, r)).FENLetter())
		}
		fmt.Fprintf(&b, " | %d\n +---+---+---+---+---+---+---+---+\n", r+1)
	}
	b.WriteString("   a   b   c   d   e   f   g   h\n\n")
	fmt.Fprintf(&b, "Fen: %s\nKey: %016X\nCheckers:", u.pos.FEN(), u.pos.Hash())
	for c := u.pos.Checkers(); c != 0; {
		fmt.Fprintf(&b, " %s", c.PopFirst())
	}
	u.out.printf("%s\n\n", b.String())
}
