package uci

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"satranc/engine/bot"
	"satranc/engine/chess"
)

// Config is how a Session starts: what `satranc uci` takes from its flags
// and its build.
type Config struct {
	// Version follows the name in the reply to `uci` ("id name Satranc
	// <Version>").
	Version string
	// Level is the bot's strength until `setoption name Level` changes it;
	// the zero Level means bot.Max, as in bot.New.
	Level bot.Level
	// Seed seeds every random choice of the session, so the same seed and
	// the same commands give the same moves (when the searches are bounded
	// by depth or nodes rather than time).
	Seed uint64
}

// defaultHash is the Hash option's default in megabytes, as `uci` announces.
const defaultHash = 16

// maxLine bounds one command line: a `position` with a whole game's moves
// fits many times over.
const maxLine = 1 << 20

// Session is one engine speaking UCI: the bot, its options and the current
// position, kept across the commands of one conversation. Its methods are
// not safe for concurrent use; Run serves one conversation at a time.
type Session struct {
	version string
	level   bot.Level
	hash    int
	seeds   *rand.Rand // seeds each bot and each new game
	bot     *bot.Bot
	pos     chess.Position
	keys    []uint64 // Zobrist keys of the positions before pos, for repetitions

	out    *lockedWriter // the replies of the Run in progress
	search *search       // the running search, or nil
}

// NewSession returns a session at cfg's level, set up at the starting
// position.
func NewSession(cfg Config) *Session {
	level := cfg.Level
	if level < bot.Easy || level > bot.Max {
		level = bot.Max
	}
	s := &Session{
		version: cfg.Version,
		level:   level,
		hash:    defaultHash,
		seeds:   rand.New(rand.NewPCG(cfg.Seed, 0x5a7)),
		pos:     chess.StartPosition(),
	}
	s.bot = bot.New(level, s.seeds.Uint64())
	return s
}

// Run reads commands from in, one per line, and writes the replies to out
// until `quit`, the end of in, or the end of ctx. At the end of in a running
// bounded search finishes and answers first, so that `echo "go depth 5" |
// satranc uci` prints its bestmove; on `quit` or when ctx ends a running
// search is stopped, and still answers. Run returns an error only when in
// or out fails.
//
// When Run returns before the end of in, one goroutine may stay blocked
// reading in until in ends or is closed: a read cannot be interrupted.
func (s *Session) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	s.out = &lockedWriter{w: out}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// Lines come through a goroutine so that a command such as `stop` is
	// read while a search runs, and so that ctx can end the loop.
	lines := make(chan string)
	var readErr error // written before lines is closed
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), maxLine)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		readErr = sc.Err()
	}()
	for {
		select {
		case <-ctx.Done():
			s.stop()
			return s.out.error()
		case line, ok := <-lines:
			if !ok {
				s.wait()
				if readErr != nil {
					return fmt.Errorf("uci: reading commands: %w", readErr)
				}
				return s.out.error()
			}
			if !s.command(ctx, line) {
				s.stop()
				return s.out.error()
			}
		}
	}
}

// commands are the commands a Session knows; any other leading token of a
// line is skipped.
var commands = map[string]bool{
	"uci": true, "debug": true, "isready": true, "setoption": true, "register": true,
	"ucinewgame": true, "position": true, "go": true, "stop": true, "ponderhit": true,
	"quit": true, "d": true,
}

// command runs one line and reports false on quit.
func (s *Session) command(ctx context.Context, line string) bool {
	fields := strings.Fields(line)
	// Skip unknown leading tokens, as the protocol says ("joho debug on").
	for len(fields) > 0 && !commands[fields[0]] {
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
		s.out.printf("id name Satranc %s\nid author the Satranç authors\n", s.version)
		s.out.printf("option name Level type combo default %s var easy var medium var hard var max\n", s.level)
		s.out.printf("option name Hash type spin default %d min 1 max 1024\n", defaultHash)
		s.out.printf("uciok\n")
	case "isready":
		s.out.printf("readyok\n")
	case "debug", "register", "ponderhit":
		// Nothing to do: no debug output, no registration, no pondering.
	case "ucinewgame":
		s.wait()
		s.bot.NewGame(s.seeds.Uint64())
		s.pos, s.keys = chess.StartPosition(), nil
	case "setoption":
		s.wait()
		s.setOption(args)
	case "position":
		if err := s.position(args); err != nil {
			s.out.printf("info string error: %v\n", err)
		}
	case "go":
		s.wait()
		s.goCommand(ctx, args)
	case "stop":
		s.stop()
	case "d":
		s.display()
	}
	return true
}

// setOption runs `setoption name <id> [value <x>]`; names may contain
// spaces and are matched in any case.
func (s *Session) setOption(args []string) {
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
			s.out.printf("info string error: %v\n", err)
			return
		}
		s.level = l
		s.bot = bot.New(l, s.seeds.Uint64())
		s.bot.SetHash(s.hash)
	case "hash":
		mb, err := strconv.Atoi(v)
		if err != nil || mb < 1 || mb > 1024 {
			s.out.printf("info string error: Hash must be a number of megabytes from 1 to 1024\n")
			return
		}
		s.hash = mb
		s.bot.SetHash(mb)
	default:
		s.out.printf("info string unknown option %q\n", strings.Join(name, " "))
	}
}

// lockedWriter serialises the lines of the command loop and of the search
// goroutine, and keeps the first write error for Run to return.
type lockedWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (lw *lockedWriter) printf(format string, args ...any) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if _, err := fmt.Fprintf(lw.w, format, args...); err != nil && lw.err == nil {
		lw.err = fmt.Errorf("uci: writing replies: %w", err)
	}
}

// error returns the first write error, if any.
func (lw *lockedWriter) error() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.err
}
