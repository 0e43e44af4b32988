package uci

import (
	"bufio"
	"context"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"satranc/engine/bot"
	"satranc/engine/chess"
)

// wait bounds every read of a reply: long enough for a slow shared
// machine, short enough that a missing reply fails rather than hangs.
const wait = 20 * time.Second

// conversation drives a Session through pipes, one line at a time.
type conversation struct {
	t      *testing.T
	s      *Session
	in     *io.PipeWriter
	lines  chan string // the replies, line by line
	done   chan error  // Run's result
	cancel context.CancelFunc
}

func start(t *testing.T, cfg Config) *conversation {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &conversation{
		t: t, s: NewSession(cfg), in: inW, cancel: cancel,
		lines: make(chan string, 1<<14), done: make(chan error, 1),
	}
	go func() {
		err := c.s.Run(ctx, inR, outW)
		outW.Close()
		c.done <- err
	}()
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(wait):
			t.Error("Run did not return after its context ended")
		}
	})
	return c
}

// send writes one command line.
func (c *conversation) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("send %q: %v", line, err)
	}
}

// next returns the next reply line.
func (c *conversation) next() string {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("replies ended")
		}
		return line
	case <-time.After(wait):
		c.t.Fatal("no reply")
	}
	return ""
}

// expect checks that the next replies are exactly want.
func (c *conversation) expect(want ...string) {
	c.t.Helper()
	for _, w := range want {
		if got := c.next(); got != w {
			c.t.Fatalf("reply %q, want %q", got, w)
		}
	}
}

// until reads replies up to and including the first that starts with
// prefix, and returns them all.
func (c *conversation) until(prefix string) []string {
	c.t.Helper()
	var got []string
	for {
		line := c.next()
		got = append(got, line)
		if strings.HasPrefix(line, prefix) {
			return got
		}
	}
}

// silent checks that the commands sent so far wrote nothing more: the
// reply to an isready sent now is the next line.
func (c *conversation) silent() {
	c.t.Helper()
	c.send("isready")
	c.expect("readyok")
}

// fen asks `d` for the current position and returns its FEN.
func (c *conversation) fen() string {
	c.t.Helper()
	c.send("d")
	lines := c.until("Fen: ")
	if len(lines) != 21 || lines[0] != "" {
		c.t.Fatalf("d: board of %d lines, want 21:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	fen := strings.TrimPrefix(lines[len(lines)-1], "Fen: ")
	if l := c.next(); !regexp.MustCompile(`^Key: [0-9A-F]{16}$`).MatchString(l) {
		c.t.Fatalf("d: %q, want the key", l)
	}
	if l := c.next(); !strings.HasPrefix(l, "Checkers:") {
		c.t.Fatalf("d: %q, want the checkers", l)
	}
	c.expect("")
	return fen
}

// end closes the input and returns Run's result.
func (c *conversation) end() error {
	c.t.Helper()
	c.in.Close()
	select {
	case err := <-c.done:
		c.done <- err // for the cleanup
		return err
	case <-time.After(wait):
		c.t.Fatal("Run did not return at the end of input")
	}
	return nil
}

var (
	infoLine = regexp.MustCompile(`^info depth (\d+) seldepth \d+ score (cp -?\d+|mate -?\d+) nodes \d+ nps \d+ time \d+ pv((?: [a-h][1-8][a-h][1-8][qrbn]?)+)$`)
	bestLine = regexp.MustCompile(`^bestmove ([a-h][1-8][a-h][1-8][qrbn]?)(?: ponder ([a-h][1-8][a-h][1-8][qrbn]?))?$`)
)

// search reads a search's replies up to its bestmove, checks the form of
// every line, and returns the info lines and the best move, which must be
// legal in p.
func (c *conversation) search(p chess.Position) (infos []string, best string) {
	c.t.Helper()
	lines := c.until("bestmove ")
	for _, l := range lines[:len(lines)-1] {
		if !infoLine.MatchString(l) {
			c.t.Errorf("search: %q is no info line", l)
		}
		infos = append(infos, l)
	}
	m := bestLine.FindStringSubmatch(lines[len(lines)-1])
	if m == nil {
		c.t.Fatalf("search: %q is no bestmove", lines[len(lines)-1])
	}
	mv, err := p.ParseUCI(m[1])
	if err != nil {
		c.t.Fatalf("bestmove: %v", err)
	}
	if m[2] != "" {
		next := p.Play(mv)
		if _, err := next.ParseUCI(m[2]); err != nil {
			c.t.Errorf("ponder: %v", err)
		}
	}
	return infos, m[1]
}

// play returns the position after moves from fen.
func play(t *testing.T, fen string, moves ...string) chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range moves {
		m, err := p.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
	}
	return p
}

// run feeds a whole input to a fresh session and returns what it wrote.
func run(t *testing.T, cfg Config, input string) string {
	t.Helper()
	var out strings.Builder
	if err := NewSession(cfg).Run(context.Background(), strings.NewReader(input), &out); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out.String()
}

func TestHandshake(t *testing.T) {
	for _, tc := range []struct {
		level bot.Level
		want  string
	}{{0, "max"}, {bot.Easy, "easy"}, {bot.Hard, "hard"}, {bot.Max, "max"}} {
		c := start(t, Config{Version: "v1.2.3", Level: tc.level, Seed: 1})
		c.send("uci")
		c.expect(
			"id name Satranc v1.2.3",
			"id author the Satranç authors",
			"option name Level type combo default "+tc.want+" var easy var medium var hard var max",
			"option name Hash type spin default 16 min 1 max 1024",
			"uciok",
		)
		c.send("isready")
		c.expect("readyok")
		if err := c.end(); err != nil {
			t.Errorf("Run = %v", err)
		}
	}
}

// TestIgnored sends what the protocol says to ignore: each is answered by
// nothing at all.
func TestIgnored(t *testing.T) {
	c := start(t, Config{Seed: 1})
	for _, line := range []string{
		"", "   ", "\t", "flurble gronk", "UCI", "debug on", "debug off", "register later",
		"register name x code y", "ponderhit", "joho debug on", "stop", "xyzzy stop",
		"go-go", "positionstartpos",
	} {
		c.send(line)
		c.silent()
	}
	// An unknown token before a command is skipped, the command runs.
	c.send("joho isready")
	c.expect("readyok")
	c.send("1 2 3 uciok uci")
	c.until("uciok")
	c.silent()
}

// TestPositionErrors sends malformed positions: each is answered by one
// error line and leaves the previous position in place.
func TestPositionErrors(t *testing.T) {
	c := start(t, Config{Seed: 1})
	c.send("position startpos moves e2e4 e7e5")
	before := play(t, chess.StartFEN, "e2e4", "e7e5")
	kept := before.FEN()
	if got := c.fen(); got != kept {
		t.Fatalf("fen %q, want %q", got, kept)
	}
	for _, tc := range []struct{ line, reply string }{
		{"position", "info string error: position: want startpos or fen"},
		{"position middlegame", `info string error: position: want startpos or fen, not "middlegame"`},
		{"position moves e2e4", `info string error: position: want startpos or fen, not "moves"`},
		{"position startpos e2e4", `info string error: position: want moves, not "e2e4"`},
		{"position startpos move e2e4", `info string error: position: want moves, not "move"`},
		{"position fen", "info string error: chess: invalid FEN"},
		{"position fen moves e2e4", "info string error: chess: invalid FEN"},
		{"position fen not a fen", "info string error: chess: invalid FEN"},
		{"position fen 8/8/8/8/8/8/8/8 w - - 0 1", "info string error: chess: invalid FEN"},
		{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "info string error: chess: invalid FEN"},
		{"position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1 moves d1d9", "info string error: "},
		{"position startpos moves e2e5", "info string error: chess: illegal move: e2e5"},
		{"position startpos moves e2e4 e2e4", "info string error: chess: illegal move"},
		{"position startpos moves e2e4 e7e5 e1g1", "info string error: chess: illegal move"},
		{"position startpos moves zz", "info string error: "},
		{"position startpos moves e7e8q", "info string error: "},
		{"position startpos moves " + strings.Repeat("g1f3 g8f6 f3g1 f6g8 ", 50) + "a1a1", "info string error: "},
	} {
		c.send(tc.line)
		if got := c.next(); !strings.HasPrefix(got, tc.reply) {
			t.Errorf("%q: reply %q, want %q...", tc.line, got, tc.reply)
		}
		c.silent()
		if got := c.fen(); got != kept {
			t.Errorf("%q: position %q, want the previous %q", tc.line, got, kept)
		}
	}
}

func TestPosition(t *testing.T) {
	c := start(t, Config{Seed: 1})
	if got := c.fen(); got != chess.StartFEN {
		t.Errorf("first position %q, want the start", got)
	}
	for _, tc := range []struct {
		line string
		want chess.Position
		keys int
	}{
		{"position startpos", chess.StartPosition(), 0},
		{"position startpos moves", chess.StartPosition(), 0},
		{"position startpos moves e2e4 e7e5 g1f3", play(t, chess.StartFEN, "e2e4", "e7e5", "g1f3"), 3},
		{"position   startpos   moves  d2d4 ", play(t, chess.StartFEN, "d2d4"), 1},
		{"position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", play(t, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), 0},
		{"position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1 moves d1d8", play(t, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"), 1},
		{"position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8q", play(t, "8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8q"), 1},
		{"position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1", play(t, chess.StartFEN, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"), 7},
	} {
		c.send(tc.line)
		c.silent()
		if got := c.fen(); got != tc.want.FEN() {
			t.Errorf("%q: position %q, want %q", tc.line, got, tc.want.FEN())
		}
	}
	// The checkers are listed.
	c.send("position startpos moves e2e4 f7f6 d1h5")
	c.send("d")
	lines := c.until("Checkers:")
	if got := lines[len(lines)-1]; got != "Checkers: h5" {
		t.Errorf("d: %q, want Checkers: h5", got)
	}
	c.expect("")
	c.silent()
	if err := c.end(); err != nil {
		t.Fatal(err)
	}
	// Each move played keeps the key of the position before it, for the
	// search's repetition draws.
	want := play(t, chess.StartFEN, "e2e4", "f7f6")
	if len(c.s.keys) != 3 || c.s.keys[2] != want.Hash() {
		t.Errorf("keys %x, want 3 ending with %x", c.s.keys, want.Hash())
	}
}

func TestUCINewGame(t *testing.T) {
	c := start(t, Config{Seed: 1})
	c.send("position startpos moves e2e4")
	c.send("ucinewgame")
	c.silent()
	if got := c.fen(); got != chess.StartFEN {
		t.Errorf("after ucinewgame: %q, want the start", got)
	}
}

// TestGoBeforePosition searches the starting position when no position
// came first.
func TestGoBeforePosition(t *testing.T) {
	c := start(t, Config{Seed: 1})
	c.send("go depth 2")
	c.search(chess.StartPosition())
	c.silent()
}

// TestGoDepth checks the info lines of a search: one per iteration, each
// with a principal variation, and the bestmove and ponder move from the
// last one.
func TestGoDepth(t *testing.T) {
	c := start(t, Config{Seed: 1})
	p := play(t, chess.StartFEN, "e2e4", "e7e5", "g1f3")
	c.send("position startpos moves e2e4 e7e5 g1f3")
	c.send("go depth 4")
	infos, best := c.search(p)
	if len(infos) != 4 {
		t.Fatalf("%d info lines, want 4: %q", len(infos), infos)
	}
	for i, l := range infos {
		if m := infoLine.FindStringSubmatch(l); m == nil || m[1] != string(rune('1'+i)) {
			t.Errorf("info %d: %q", i+1, l)
		}
	}
	pv := strings.Fields(infoLine.FindStringSubmatch(infos[3])[3])
	if best != pv[0] {
		t.Errorf("bestmove %s, want the PV's first move %s", best, pv[0])
	}
	c.silent()
}

func TestGoMate(t *testing.T) {
	for _, level := range []string{"hard", "max"} {
		c := start(t, Config{Seed: 5})
		c.send("setoption name Level value " + level)
		c.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
		c.send("go depth 4")
		infos, best := c.search(play(t, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"))
		if best != "d1d8" {
			t.Errorf("%s: bestmove %s, want d1d8", level, best)
		}
		if !strings.Contains(infos[len(infos)-1], " score mate 1 ") {
			t.Errorf("%s: last info %q, want mate 1", level, infos[len(infos)-1])
		}
	}
}

// TestGoNoMove: with no legal move the answer is bestmove (none), after a
// score for the mate or the stalemate.
func TestGoNoMove(t *testing.T) {
	c := start(t, Config{Seed: 1})
	for _, tc := range []struct{ fen, info string }{
		{"3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", "info depth 0 score mate 0"},
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "info depth 0 score cp 0"},
	} {
		for _, g := range []string{"go depth 3", "go movetime 50", "go wtime 1000 btime 1000"} {
			c.send("position fen " + tc.fen)
			c.send(g)
			c.expect(tc.info, "bestmove (none)")
		}
		c.send("go infinite")
		c.silent()
		c.send("stop")
		c.expect(tc.info, "bestmove (none)")
	}
	c.silent()
}

// TestGoBadNumbers: a missing or bad number counts as none, and a bad one
// is reported; the search still answers.
func TestGoBadNumbers(t *testing.T) {
	c := start(t, Config{Seed: 1})
	c.send("go depth x")
	c.expect(`info string error: go depth: "x" is not a number`)
	infos, _ := c.search(chess.StartPosition())
	if len(infos) != 1 {
		t.Errorf("go depth x: %d iterations, want 1", len(infos))
	}
	for _, g := range []string{"go depth", "go depth 0", "go depth -3", "go nodes -5", "go nodes 0", "go depth 1 movestogo -3"} {
		c.send(g)
		c.search(chess.StartPosition())
	}
	c.send("go nodes 1e9")
	c.expect(`info string error: go nodes: "1e9" is not a number`)
	c.search(chess.StartPosition())
	c.silent()
}

func TestGoPerft(t *testing.T) {
	c := start(t, Config{Seed: 1})
	c.send("go perft 1")
	lines := c.until("Nodes searched:")
	if len(lines) != 22 || lines[20] != "" || lines[21] != "Nodes searched: 20" {
		t.Fatalf("go perft 1:\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines[:20] {
		mv, n, ok := strings.Cut(l, ": ")
		start := chess.StartPosition()
		if _, err := start.ParseUCI(mv); err != nil || !ok || n != "1" {
			t.Errorf("go perft 1: %q", l)
		}
	}
	c.expect("")
	c.send("position startpos moves e2e4")
	c.send("go perft 2")
	lines = c.until("Nodes searched:")
	if got := lines[len(lines)-1]; got != "Nodes searched: 600" {
		t.Errorf("go perft 2 after e2e4: %q, want 600", got)
	}
	c.expect("")
	c.send("position startpos")
	c.send("go perft 3")
	if lines := c.until("Nodes searched:"); lines[len(lines)-1] != "Nodes searched: 8902" {
		t.Errorf("go perft 3: %q", lines[len(lines)-1])
	}
	c.expect("")
	for _, g := range []string{"go perft", "go perft 0", "go perft 11", "go perft -1"} {
		c.send(g)
		c.expect("info string error: go perft wants a depth from 1 to 10")
	}
	c.send("go perft three")
	c.expect(`info string error: go perft: "three" is not a number`,
		"info string error: go perft wants a depth from 1 to 10")
	c.silent()
}

// TestGoClock checks that the side to move's clock bounds the search: a
// few hundred milliseconds for it against ten minutes for the other side.
func TestGoClock(t *testing.T) {
	c := start(t, Config{Seed: 1})
	for _, tc := range []struct {
		moves, g string
	}{
		{"", "go wtime 300 btime 600000 winc 0 binc 0"},
		{"e2e4", "go wtime 600000 btime 300 winc 0 binc 0"},
		{"e2e4", "go btime 300 wtime 600000 movestogo 40"},
		{"", "go wtime 0 btime 600000"},
		{"e2e4", "go wtime 600000 btime -20"},
		{"", "go wtime 0 btime 0"},
		{"", "go movetime 100"},
		{"", "go movetime 0"},
		{"", "go movetime 100 wtime 600000 btime 600000"},
	} {
		c.send("position startpos moves " + tc.moves)
		begin := time.Now()
		c.send(tc.g)
		c.search(play(t, chess.StartFEN, strings.Fields(tc.moves)...))
		if d := time.Since(begin); d > 5*time.Second {
			t.Errorf("%q after %q: answered after %v", tc.g, tc.moves, d)
		}
	}
	c.silent()
}

// TestInfinite: an infinite search (or a bare go) answers only after stop,
// and is answered for while it runs.
func TestInfinite(t *testing.T) {
	c := start(t, Config{Seed: 1})
	c.send("position startpos moves e2e4")
	p := play(t, chess.StartFEN, "e2e4")
	for _, g := range []string{"go infinite", "go", "go depth 1 infinite", "go nodes 100 infinite"} {
		c.send(g)
		time.Sleep(50 * time.Millisecond)
		c.send("isready")
		for _, l := range c.until("readyok") {
			if strings.HasPrefix(l, "bestmove") {
				t.Fatalf("%q: %q before stop", g, l)
			}
		}
		c.send("stop")
		c.search(p)
		c.silent()
	}
	// A command that changes what the search uses stops it first.
	for _, cmd := range []string{"go depth 1", "ucinewgame", "setoption name Hash value 2"} {
		c.send("go infinite")
		c.send(cmd)
		c.search(p)
		if strings.HasPrefix(cmd, "go") {
			c.search(p)
		}
		c.silent()
		c.send("position startpos moves e2e4")
	}
}

// TestPositionDuringSearch: a position sent while a search runs changes
// the next search, not this one.
func TestPositionDuringSearch(t *testing.T) {
	c := start(t, Config{Seed: 1})
	c.send("go infinite")
	c.send("position startpos moves e2e4")
	c.send("stop")
	c.search(chess.StartPosition())
	c.send("go depth 1")
	c.search(play(t, chess.StartFEN, "e2e4"))
}

func TestSetOption(t *testing.T) {
	c := start(t, Config{Level: bot.Max, Seed: 1})
	for _, tc := range []struct {
		line, reply string
		level       bot.Level
		hash        int
	}{
		{"setoption name Level value hard", "", bot.Hard, 16},
		{"setoption name level value EASY", "", bot.Easy, 16},
		{"setoption name Hash value 4", "", bot.Easy, 4},
		{"setoption name hash value 1024", "", bot.Easy, 1024},
		{"setoption name Hash value 1", "", bot.Easy, 1},
		{"setoption name Level value superhuman", `info string error: bot: unknown level: "superhuman": want easy, medium, hard or max`, bot.Easy, 1},
		{"setoption name Level", `info string error: bot: unknown level: "": want easy, medium, hard or max`, bot.Easy, 1},
		{"setoption name Hash value 0", "info string error: Hash must be a number of megabytes from 1 to 1024", bot.Easy, 1},
		{"setoption name Hash value 1025", "info string error: Hash must be a number of megabytes from 1 to 1024", bot.Easy, 1},
		{"setoption name Hash value lots", "info string error: Hash must be a number of megabytes from 1 to 1024", bot.Easy, 1},
		{"setoption name Hash", "info string error: Hash must be a number of megabytes from 1 to 1024", bot.Easy, 1},
		{"setoption name Clear Hash", `info string unknown option "Clear Hash"`, bot.Easy, 1},
		{"setoption name Foo Bar value 1", `info string unknown option "Foo Bar"`, bot.Easy, 1},
		{"setoption", `info string unknown option ""`, bot.Easy, 1},
		{"setoption value medium", `info string unknown option ""`, bot.Easy, 1},
		{"setoption name Level value medium", "", bot.Medium, 1},
	} {
		c.send(tc.line)
		if tc.reply != "" {
			c.expect(tc.reply)
		}
		c.silent()
		// The session's state is read only between commands: the command
		// loop has answered isready, so it waits for the next line.
		if c.s.level != tc.level || c.s.hash != tc.hash || c.s.bot.Level() != tc.level {
			t.Errorf("%q: level %s (bot %s), hash %d; want %s, %d", tc.line, c.s.level, c.s.bot.Level(), c.s.hash, tc.level, tc.hash)
		}
	}
	c.send("uci")
	if lines := c.until("uciok"); lines[2] != "option name Level type combo default medium var easy var medium var hard var max" {
		t.Errorf("uci after setoption: %q", lines[2])
	}
}

// TestSeed: the same seed and the same commands give the same moves.
func TestSeed(t *testing.T) {
	input := "setoption name Level value easy\nposition startpos\ngo depth 3\nposition startpos moves e2e4\ngo depth 3\n" +
		"ucinewgame\nsetoption name Level value medium\nposition startpos moves d2d4 d7d5\ngo depth 3\n"
	moves := func(seed uint64) string {
		var best []string
		for l := range strings.Lines(run(t, Config{Seed: seed}, input)) {
			if strings.HasPrefix(l, "bestmove") {
				best = append(best, strings.TrimSpace(l))
			}
		}
		if len(best) != 3 {
			t.Fatalf("seed %d: %d bestmoves, want 3", seed, len(best))
		}
		return strings.Join(best, ", ")
	}
	if a, b := moves(7), moves(7); a != b {
		t.Errorf("seed 7 twice: %s, then %s", a, b)
	}
}

func TestQuit(t *testing.T) {
	if got := run(t, Config{Seed: 1}, "isready\nquit\nisready\n"); got != "readyok\n" {
		t.Errorf("after quit: %q, want one readyok", got)
	}
	if got := run(t, Config{Seed: 1}, "isready\njoho quit now\nisready\n"); got != "readyok\n" {
		t.Errorf("after quit: %q, want one readyok", got)
	}
	// quit stops a running search, which still answers.
	got := run(t, Config{Seed: 1}, "go infinite\nquit\n")
	if !strings.HasSuffix(got, "\n") || !bestLine.MatchString(lastLine(got)) {
		t.Errorf("go infinite, quit: %q, want a bestmove last", got)
	}
}

// TestEndOfInput: at the end of input a bounded search finishes and
// answers, and an infinite one is stopped and answers.
func TestEndOfInput(t *testing.T) {
	for _, input := range []string{"go depth 3\n", "go depth 3", "go infinite\n", "go nodes 5000\n"} {
		got := run(t, Config{Seed: 1}, input)
		if !bestLine.MatchString(lastLine(got)) {
			t.Errorf("%q: %q, want a bestmove last", input, got)
		}
	}
	if got := run(t, Config{Seed: 1}, ""); got != "" {
		t.Errorf("no input: %q", got)
	}
	// A bounded search is not cut short at the end of input.
	got := run(t, Config{Seed: 1}, "go depth 4\n")
	if n := strings.Count(got, "info depth "); n != 4 {
		t.Errorf("go depth 4 then end of input: %d iterations, want 4:\n%s", n, got)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestContextEnds: when ctx ends, Run stops the search, which answers, and
// returns.
func TestContextEnds(t *testing.T) {
	c := start(t, Config{Seed: 1})
	c.send("go infinite")
	c.send("isready")
	c.until("readyok") // the search has started, and may have reported
	c.cancel()
	c.search(chess.StartPosition())
	select {
	case err := <-c.done:
		c.done <- err
		if err != nil {
			t.Errorf("Run = %v, want nil", err)
		}
	case <-time.After(wait):
		t.Fatal("Run did not return")
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	var out strings.Builder
	in := io.MultiReader(strings.NewReader("isready\n"), iotest.ErrReader(boom))
	err := NewSession(Config{Seed: 1}).Run(context.Background(), in, &out)
	if !errors.Is(err, boom) || out.String() != "readyok\n" {
		t.Errorf("Run = %v, output %q; want boom after readyok", err, out.String())
	}
	// A line past the limit is an error too, not a silent end.
	out.Reset()
	err = NewSession(Config{Seed: 1}).Run(context.Background(), strings.NewReader("isready\nposition startpos moves"+strings.Repeat(" e2e4", maxLine/5)+"\n"), &out)
	if !errors.Is(err, bufio.ErrTooLong) || out.String() != "readyok\n" {
		t.Errorf("Run = %v, output %q; want bufio.ErrTooLong after readyok", err, out.String())
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestWriteError(t *testing.T) {
	boom := errors.New("boom")
	err := NewSession(Config{Seed: 1}).Run(context.Background(), strings.NewReader("uci\ngo depth 2\n"), failWriter{boom})
	if !errors.Is(err, boom) {
		t.Errorf("Run = %v, want boom", err)
	}
}
