package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"satranc/engine/bot"
	"satranc/engine/chess"
)

// Clocks are both players' remaining times when a move is asked for.
type Clocks struct {
	White, Black time.Duration
	Increment    time.Duration
}

// Engine is one side of a match.
type Engine interface {
	Name() string
	// NewGame prepares for a new game; seed varies the engine's choices.
	NewGame(ctx context.Context, seed uint64) error
	// Move returns the engine's move in the game's current position.
	Move(ctx context.Context, g *chess.Game, c Clocks) (chess.Move, error)
	Close() error
}

// Bot is an in-process bot.Bot as a match engine.
type Bot struct {
	level bot.Level
	b     *bot.Bot
	limit bot.Limits // extra limits, for fast tests
}

// NewBot returns an in-process engine playing at level l.
func NewBot(l bot.Level) *Bot { return &Bot{level: l, b: bot.New(l, 1)} }

// NewBotLimited returns an in-process engine at level l that also stops
// at lim (for quick smoke matches).
func NewBotLimited(l bot.Level, lim bot.Limits) *Bot {
	return &Bot{level: l, b: bot.New(l, 1), limit: lim}
}

// Name implements Engine.
func (e *Bot) Name() string { return "satranc-" + e.level.String() }

// NewGame implements Engine.
func (e *Bot) NewGame(_ context.Context, seed uint64) error {
	e.b.NewGame(seed)
	return nil
}

// Move implements Engine.
func (e *Bot) Move(ctx context.Context, g *chess.Game, c Clocks) (chess.Move, error) {
	p := g.Position()
	clk := bot.Clock{Remaining: c.White, Increment: c.Increment}
	if p.SideToMove() == chess.Black {
		clk.Remaining = c.Black
	}
	lim := e.limit
	soft, hard := bot.Budget(clk)
	lim.Soft = soft
	if lim.Hard == 0 || (hard > 0 && hard < lim.Hard) {
		lim.Hard = hard
	}
	res := e.b.Think(ctx, p, bot.Keys(g), lim, nil)
	if res.Move == chess.NullMove {
		return chess.NullMove, bot.ErrNoMove
	}
	return res.Move, nil
}

// Close implements Engine.
func (e *Bot) Close() error { return nil }

// UCI is an engine program spoken to over the UCI protocol.
type UCI struct {
	name  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

// ErrEngine is wrapped by errors from a UCI engine that misbehaves.
var ErrEngine = errors.New("match: engine")

// StartUCI starts the engine program path with args, completes the
// handshake and sets the options. A value outside the range the engine
// announces for a spin option is an error wrapping ErrEngine.
func StartUCI(ctx context.Context, path string, args []string, options map[string]string) (*UCI, error) {
	cmd := exec.Command(path, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("match: start %s: %w", path, err)
	}
	e := &UCI{name: filepath.Base(path), cmd: cmd, in: in, lines: make(chan string, 256)}
	go func() {
		defer close(e.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
	}()
	e.send("uci")
	offered, err := e.readOptions(ctx)
	if err != nil {
		e.Close()
		return nil, err
	}
	names := make([]string, 0, len(options))
	for n := range options {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		// An engine ignores a value out of an option's range (Stockfish
		// 15.1 keeps UCI_Elo at 1350 when asked for 1320): a match would
		// run against another setting than the one it is named after.
		if r, ok := offered[n]; ok && !r.holds(options[n]) {
			e.Close()
			return nil, fmt.Errorf("%w: %s offers %s from %d to %d, not %s", ErrEngine, e.name, n, r.min, r.max, options[n])
		}
		e.send("setoption name " + n + " value " + options[n])
		if n == "UCI_Elo" {
			e.name += "-" + options[n]
		}
	}
	e.send("isready")
	if _, err := e.await(ctx, "readyok", 10*time.Second); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

func (e *UCI) send(s string) { _, _ = io.WriteString(e.in, s+"\n") }

// spinRange is the range of values a spin option of an engine takes.
type spinRange struct{ min, max int }

// holds reports whether v, a number, lies in r.
func (r spinRange) holds(v string) bool {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return err == nil && n >= r.min && n <= r.max
}

// readOptions reads the engine's answer to "uci" up to "uciok" and
// returns the ranges of its spin options by name.
func (e *UCI) readOptions(ctx context.Context) (map[string]spinRange, error) {
	offered := map[string]spinRange{}
	for {
		line, err := e.await(ctx, "", 10*time.Second)
		if err != nil {
			return nil, fmt.Errorf("waiting for uciok: %w", err)
		}
		if line == "uciok" {
			return offered, nil
		}
		if name, r, ok := parseSpinOption(line); ok {
			offered[name] = r
		}
	}
}

// parseSpinOption reads an "option name N type spin default D min A max
// B" line (a name may have spaces: "Skill Level").
func parseSpinOption(line string) (name string, r spinRange, ok bool) {
	rest, found := strings.CutPrefix(line, "option name ")
	if !found {
		return "", r, false
	}
	name, rest, found = strings.Cut(rest, " type ")
	if !found || !strings.HasPrefix(rest, "spin ") {
		return "", r, false
	}
	f := strings.Fields(rest)
	var haveMin, haveMax bool
	for i := 0; i+1 < len(f); i++ {
		n, err := strconv.Atoi(f[i+1])
		switch {
		case err != nil:
		case f[i] == "min":
			r.min, haveMin = n, true
		case f[i] == "max":
			r.max, haveMax = n, true
		}
	}
	return name, r, haveMin && haveMax
}

// await reads lines until one starts with prefix, and returns it.
func (e *UCI) await(ctx context.Context, prefix string, timeout time.Duration) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				return "", fmt.Errorf("%w: %s exited waiting for %s", ErrEngine, e.name, prefix)
			}
			if strings.HasPrefix(line, prefix) {
				return line, nil
			}
		case <-t.C:
			return "", fmt.Errorf("%w: %s: no %s after %v", ErrEngine, e.name, prefix, timeout)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// Name implements Engine.
func (e *UCI) Name() string { return e.name }

// NewGame implements Engine.
func (e *UCI) NewGame(ctx context.Context, _ uint64) error {
	e.send("ucinewgame")
	e.send("isready")
	_, err := e.await(ctx, "readyok", 10*time.Second)
	return err
}

// Move implements Engine. An engine that does not answer within its
// remaining time and a second of grace forfeits by ErrEngine.
func (e *UCI) Move(ctx context.Context, g *chess.Game, c Clocks) (chess.Move, error) {
	var b strings.Builder
	b.WriteString("position fen ")
	start := g.Start()
	b.WriteString(start.FEN())
	if len(g.Moves()) > 0 {
		b.WriteString(" moves")
		for _, m := range g.Moves() {
			b.WriteString(" " + m.String())
		}
	}
	e.send(b.String())
	e.send(fmt.Sprintf("go wtime %d btime %d winc %d binc %d",
		max(c.White.Milliseconds(), 1), max(c.Black.Milliseconds(), 1), c.Increment.Milliseconds(), c.Increment.Milliseconds()))
	p := g.Position()
	left := c.White
	if p.SideToMove() == chess.Black {
		left = c.Black
	}
	line, err := e.await(ctx, "bestmove", left+time.Second)
	if err != nil {
		return chess.NullMove, err
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return chess.NullMove, fmt.Errorf("%w: %s: %q", ErrEngine, e.name, line)
	}
	return p.ParseUCI(f[1])
}

// Close implements Engine.
func (e *UCI) Close() error {
	e.send("quit")
	e.in.Close()
	done := make(chan error, 1)
	go func() { done <- e.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Second):
		_ = e.cmd.Process.Kill()
		return <-done
	}
}
