package main

import (
	"bufio"
	"context"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/engine/chess"
)

// TestUCIScriptedSession plays a whole session from a script and checks
// every answer: each `go` gets one legal bestmove for its position.
func TestUCIScriptedSession(t *testing.T) {
	script := []string{
		"uci",
		"isready",
		"ucinewgame",
		"setoption name Level value hard",
		"setoption name Hash value 4",
		"position startpos moves e2e4 e7e5 g1f3",
		"go depth 3",
		"position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
		"go depth 4",
		"setoption name Level value max",
		"position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
		"go depth 4",
		"position startpos",
		"go movetime 50",
		"position startpos moves d2d4",
		"go wtime 1000 btime 1000 winc 10 binc 10",
		"go nodes 2000",
		"flurble gronk",                // unknown: ignored
		"joho isready",                 // unknown token, then a command
		"position fen not a fen",       // malformed: info string, position kept
		"position startpos moves e2e5", // illegal move: likewise
		"go depth 2",
		"position fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", // checkmated
		"go depth 3",
		"position startpos",
		"go perft 3",
		"d",
		"setoption name Level value superhuman",
		"quit",
		"go depth 1", // after quit: never read
	}
	// The position each go searches, in order.
	after := func(fen string, moves ...string) chess.Position {
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
	mate1 := "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
	searched := []chess.Position{
		after(chess.StartFEN, "e2e4", "e7e5", "g1f3"),
		after(mate1),
		after(mate1),
		after(chess.StartFEN),
		after(chess.StartFEN, "d2d4"),
		after(chess.StartFEN, "d2d4"),
		after(chess.StartFEN, "d2d4"), // the malformed positions left it unchanged
	}

	var out, errOut strings.Builder
	code := runUCI(context.Background(), []string{"--seed", "5"}, strings.NewReader(strings.Join(script, "\n")+"\n"), &out, &errOut)
	if code != 0 {
		t.Fatalf("runUCI = %d, want 0; stderr: %s", code, errOut.String())
	}
	text := out.String()
	for _, want := range []string{
		"id name Satranc", "option name Level type combo", "uciok\n", "readyok\n",
		"info string error: chess: invalid FEN",
		"info string error: chess: illegal move: e2e5",
		"info depth 0 score mate 0\nbestmove (none)\n",
		"Nodes searched: 8902\n",
		"Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
		"info string error: bot: unknown level",
		"score mate 1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "readyok"); n != 2 {
		t.Errorf("readyok %d times, want 2", n)
	}
	var best []string
	for line := range strings.Lines(text) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "bestmove" && f[1] != "(none)" {
			best = append(best, f[1])
		}
		if strings.HasPrefix(line, "info depth") && !strings.Contains(line, " pv ") && !strings.HasPrefix(line, "info depth 0") {
			t.Errorf("info line without pv: %q", line)
		}
	}
	if len(best) != len(searched) {
		t.Fatalf("%d bestmoves %v, want %d:\n%s", len(best), best, len(searched), text)
	}
	for i, s := range best {
		if _, err := searched[i].ParseUCI(s); err != nil {
			t.Errorf("bestmove %d: %v", i+1, err)
		}
	}
	if best[1] != "d1d8" || best[2] != "d1d8" {
		t.Errorf("mate in 1: bestmove %s (hard), %s (max), want d1d8", best[1], best[2])
	}
}

// syncBuffer is a strings.Builder safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestUCIInfiniteAndStop checks that an infinite search answers only after
// stop, and that quit ends the session.
func TestUCIInfiniteAndStop(t *testing.T) {
	pr, pw := io.Pipe()
	var out syncBuffer
	done := make(chan int)
	go func() { done <- runUCI(context.Background(), nil, pr, &out, io.Discard) }()
	send := func(s string) {
		if _, err := io.WriteString(pw, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send("position startpos moves e2e4")
	send("go infinite")
	time.Sleep(100 * time.Millisecond)
	if strings.Contains(out.String(), "bestmove") {
		t.Fatalf("bestmove before stop:\n%s", out.String())
	}
	send("isready")
	send("stop")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "bestmove") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	send("quit")
	if code := <-done; code != 0 {
		t.Errorf("runUCI = %d, want 0", code)
	}
	pw.Close()
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if !slices.Contains(lines, "readyok") {
		t.Errorf("no readyok while searching:\n%s", out.String())
	}
	i := slices.IndexFunc(lines, func(s string) bool { return strings.HasPrefix(s, "bestmove ") })
	if i < 0 {
		t.Fatalf("no bestmove after stop:\n%s", out.String())
	}
	p := chess.StartPosition()
	m, _ := p.ParseUCI("e2e4")
	p = p.Play(m)
	if _, err := p.ParseUCI(strings.Fields(lines[i])[1]); err != nil {
		t.Errorf("bestmove after stop: %v", err)
	}
}

func TestUCIBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--level", "grandmaster"}, {"extra"}} {
		var errOut strings.Builder
		if code := runUCI(context.Background(), args, strings.NewReader(""), io.Discard, &errOut); code != 2 {
			t.Errorf("runUCI(%q) = %d, want 2", args, code)
		}
	}
}
