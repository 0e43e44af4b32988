package chess

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var updatePGN = flag.Bool("update", false, "rewrite the testdata/pgn_*.golden files")

// summarizePGN writes a game compactly for comparison:
//
//	[Name=Value]... fen:<FEN> {game comment} e2e4$1@5m0s{comment} ... result
//
// with moves in UCI, NAGs as $n, a clock as @duration, and the start FEN only
// when it is not the standard start.
func summarizePGN(g *PGNGame) string {
	var parts []string
	for _, t := range g.Tags {
		parts = append(parts, "["+t.Name+"="+t.Value+"]")
	}
	if g.Start.FEN() != StartFEN {
		parts = append(parts, "fen:"+g.Start.FEN())
	}
	if g.Comment != "" {
		parts = append(parts, "{"+g.Comment+"}")
	}
	for _, m := range g.Moves {
		s := m.Move.String()
		for _, n := range m.NAGs {
			s += fmt.Sprintf("$%d", n)
		}
		if m.HasClock {
			s += "@" + m.Clock.String()
		}
		if m.Comment != "" {
			s += "{" + m.Comment + "}"
		}
		parts = append(parts, s)
	}
	parts = append(parts, g.Result)
	return strings.Join(parts, " ")
}

// readAllPGN reads every game of text; a game with an error is summarised
// as "error: <message>".
func readAllPGN(t testing.TB, text string, l Letters) []string {
	t.Helper()
	r := NewPGNReader(strings.NewReader(text), l)
	var out []string
	for i := 0; ; i++ {
		if i > 100 {
			t.Fatalf("more than 100 games in %q", text)
		}
		g, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			var pe *PGNError
			if !errors.As(err, &pe) {
				t.Fatalf("Next() error %v is not a *PGNError", err)
			}
			out = append(out, "error: "+err.Error())
			continue
		}
		out = append(out, summarizePGN(g))
	}
}

// pgnReaderTests are the reader's table tests, and seeds for FuzzPGN.
var pgnReaderTests = []struct {
	name string
	in   string
	want []string
}{
	{"empty", "", nil},
	{"blank lines only", "\n\r\n  \n", nil},
	{"bare movetext", "1. e4 e5 2. Nf3 *", []string{"e2e4 e7e5 g1f3 *"}},
	{"bare movetext without result", "1. e4 e5\n", []string{"e2e4 e7e5 *"}},
	{"no spaces after numbers", "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 1/2-1/2", []string{"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 1/2-1/2"}},
	{"black move numbers", "1. e4 1... e5 2. Nf3 2...Nc6 *", []string{"e2e4 e7e5 g1f3 b8c6 *"}},
	{"tags", "[Event \"Test\"]\n[White \"A\"]\n\n1. e4 1-0\n", []string{"[Event=Test] [White=A] e2e4 1-0"}},
	{"tag escapes", `[Event "a \"b\" \\ c \d"]` + "\n*", []string{`[Event=a "b" \ c \d] *`}},
	{"tag spacing", "[Event   \"x\"  ]\n[Site\"y\"]\n*", []string{"[Event=x] [Site=y] *"}},
	{"duplicate tag keeps the last value", "[Event \"a\"]\n[Site \"s\"]\n[Event \"b\"]\n*", []string{"[Event=b] [Site=s] *"}},
	{"result from the tag", "[Result \"0-1\"]\n1. e4 e5\n", []string{"[Result=0-1] e2e4 e7e5 0-1"}},
	{"result only", "[Event \"x\"]\n\n*\n\n1-0\n\n0-1 1/2-1/2", []string{"[Event=x] *", "1-0", "0-1", "1/2-1/2"}},
	{"comment with braces and newlines", "1. e4 {a {nested\n  comment\n} e5 *", []string{"e2e4{a {nested comment} e7e5 *"}},
	{"line comment", "1. e4 ; king's pawn {not a brace comment\ne5 *", []string{"e2e4{king's pawn {not a brace comment} e7e5 *"}},
	{"comments are joined", "1. e4 {one} {two} ; three\n e5 *", []string{"e2e4{one two three} e7e5 *"}},
	{"game comment", "{before} 1. e4 *", []string{"{before} e2e4 *"}},
	{"comment before the tags", "{intro}\n[Event \"x\"]\n1. e4 *", []string{"[Event=x] {intro} e2e4 *"}},
	{"comment after the last result is no game", "1. e4 * {trailing}\n", []string{"e2e4 *"}},
	{"escape lines", "% comment line\n[Event \"x\"]\n%another\n1. e4 *", []string{"[Event=x] e2e4 *"}},
	{"nested variations", "1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Nf3)) 2. c4) 1... e5 (1... c5 {Sicilian}) 2. Nf3 *", []string{"e2e4 e7e5 g1f3 *"}},
	{"NAGs", "1. e4 $1 e5 $2 $14 2. Nf3! Nc6? 3. Bb5!! a6?? 4. Ba4!? Nf6?! *", []string{"e2e4$1 e7e5$2$14 g1f3$1 b8c6$2 f1b5$3 a7a6$4 b5a4$5 g8f6$6 *"}},
	{"clock", "1. e4 {[%clk 0:05:00]} e5 {[%clk 1:02:03.4] [%eval 0.3]} 2. Nf3 {note [%clk 0:00:09.125]} *", []string{"e2e4@5m0s e7e5@1h2m3.4s{[%eval 0.3]} g1f3@9.125s{note} *"}},
	{"bad clocks stay in the comment", "1. e4 {[%clk 5:00]} e5 {[%clk 0:61:00]} 2. Nf3 {[%clk0:01:00]} *", []string{"e2e4{[%clk 5:00]} e7e5{[%clk 0:61:00]} g1f3{[%clk0:01:00]} *"}},
	{"first valid clock wins", "1. e4 {[%clk x] [%clk 0:00:01] [%clk 0:00:02]} *", []string{"e2e4@1s{[%clk x] [%clk 0:00:02]} *"}},
	{"e.p. after an en-passant capture", "1. e4 a6 2. e5 f5 3. exf6 e.p. a5 4. d4 a4 5. d5 e5 6. dxe6 ep *", []string{"e2e4 a7a6 e4e5 f7f5 e5f6 a6a5 d2d4 a5a4 d4d5 e7e5 d5e6 *"}},
	{"ep read as a move after an ordinary one", "1. e4 a6 2. e5 f5 3. exf6 a5 4. f7+ ep *", []string{`error: pgn: game 1, move 4 (black) "ep": chess: invalid SAN`}},
	{"ep mark and a comment", "1. e4 a6 2. e5 f5 3. exf6 ep {took it} a5 *", []string{"e2e4 a7a6 e4e5 f7f5 e5f6{took it} a6a5 *"}},
	{"several games", "[Event \"1\"]\n\n1. e4 1-0\n\n[Event \"2\"]\n\n1. d4 0-1\n\n[Event \"3\"]\n\n*\n", []string{"[Event=1] e2e4 1-0", "[Event=2] d2d4 0-1", "[Event=3] *"}},
	{"games without results split at tags", "[Event \"1\"]\n1. e4\n[Event \"2\"]\n1. d4\n", []string{"[Event=1] e2e4 *", "[Event=2] d2d4 *"}},
	{"FEN start with black to move", "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 12\"]\n\n12... Kd7 13. Kd2 *", []string{"[SetUp=1] [FEN=4k3/8/8/8/8/8/4P3/4K3 b - - 0 12] fen:4k3/8/8/8/8/8/4P3/4K3 b - - 0 12 e8d7 e1d2 *"}},
	{"FEN without SetUp", "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - -\"]\n1. e4 *", []string{"[FEN=4k3/8/8/8/8/8/4P3/4K3 w - -] fen:4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 e2e4 *"}},
	{"CRLF and BOM", "\uFEFF[Event \"x\"]\r\n[Site \"y\"]\r\n\r\n1. e4 {a\r\nb} e5 ; c\r\n1-0\r\n\r\n\uFEFF1. d4 *\r\n", []string{"[Event=x] [Site=y] e2e4{a b} e7e5{c} 1-0", "d2d4 *"}},
	{"castling with zeros", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6 *", []string{"e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6 *"}},
	{"UCI moves", "e2e4 e7e5 g1f3 *", []string{"e2e4 e7e5 g1f3 *"}},
	{"check and mate marks", "1. f3 e5 2. g4 Qh4# 0-1", []string{"f2f3 e7e5 g2g4 d8h4 0-1"}},
	{"promotion", "[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n1. a8=Q Kg6 2. Qb8 *", []string{"[FEN=8/P6k/8/8/8/8/8/K7 w - - 0 1] fen:8/P6k/8/8/8/8/8/K7 w - - 0 1 a7a8q h7g6 a8b8 *"}},
	{"lichess variant From Position", "[Variant \"From Position\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n1. e4 *", []string{"[Variant=From Position] [FEN=4k3/8/8/8/8/8/4P3/4K3 w - - 0 1] fen:4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 e2e4 *"}},

	// Errors, and reading on after them.
	{"illegal move", "1. e4 e5 2. Ke3 *\n\n1. d4 *", []string{`error: pgn: game 1, move 2 (white) "Ke3": chess: illegal move`, "d2d4 *"}},
	{"not a move", "1. e4 Zz9 2. Nf3 *\n[Event \"2\"]\n1. d4 *", []string{`error: pgn: game 1, move 1 (black) "Zz9": chess: invalid SAN`, "[Event=2] d2d4 *"}},
	{"e.p. after an ordinary capture", "1. e4 d5 2. exd5 e.p. *", []string{`error: pgn: game 1, move 2 (black) "e": chess: invalid SAN`}},
	{"ambiguous move", "[FEN \"4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1\"]\n1. Nb3 *", []string{`error: pgn: game 1, move 1 (white) "Nb3": chess: ambiguous SAN`}},
	{"move after checkmate", "1. f3 e5 2. g4 Qh4# 3. a3 0-1\n\n1. e4 *", []string{`error: pgn: game 1, move 3 (white) "a3": chess: move after the end of the game by checkmate`, "e2e4 *"}},
	{"move after threefold repetition", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *", []string{`error: pgn: game 1, move 5 (white) "e4": chess: move after the end of the game by threefold repetition`}},
	{"bad FEN tag", "[FEN \"8/8/8 w - - 0 1\"]\n1. e4 *\n\n1. d4 *", []string{`error: pgn: game 1, line 1: FEN tag: chess: invalid FEN: piece placement "8/8/8": want 8 ranks separated by /, got 3`, "d2d4 *"}},
	{"bad FEN tag without moves", "[FEN \"x\"]\n*\n1. d4 *", []string{`error: pgn: game 1, line 1: FEN tag: chess: invalid FEN: want 6 fields (or 4 without the move counters), got 1`, "d2d4 *"}},
	{"unsupported variant", "[Variant \"Chess960\"]\n1. e4 *\n1. d4 *", []string{`error: pgn: game 1, line 1: chess: invalid PGN: variant "Chess960" is not supported`, "d2d4 *"}},
	{"unterminated comment", "1. e4 {oops\n e5 *", []string{"error: pgn: game 1, line 1: chess: invalid PGN: comment opened on line 1 is not closed with }"}},
	{"unterminated variation", "1. e4 (1. d4 d5\n*", []string{"error: pgn: game 1, line 2: chess: invalid PGN: result * inside a variation"}},
	{"variation open at the end", "1. e4 (1. d4 d5", []string{"error: pgn: game 1, line 1: chess: invalid PGN: variation not closed with ) before the end of the text"}},
	{"variation open at the next game", "1. e4 (1. d4\n[Event \"2\"]\n1. c4 *", []string{"error: pgn: game 1, line 2: chess: invalid PGN: variation not closed with ) before the next game", "[Event=2] c2c4 *"}},
	{"unmatched parenthesis", "1. e4 ) e5 *\n[Event \"2\"]\n*", []string{"error: pgn: game 1, line 1: chess: invalid PGN: ) without a variation to close", "[Event=2] *"}},
	{"bad tag", "[Event x]\n[Site \"s\"]\n1. e4 *\n\n1. d4 *", []string{"error: pgn: game 1, line 1: chess: invalid PGN: tag pair Event: want a value in double quotes", "d2d4 *"}},
	{"unterminated tag value", "[Event \"x\n1. e4 *\n[Event \"y\"]\n*", []string{"error: pgn: game 1, line 1: chess: invalid PGN: tag pair Event: value not closed with \" on its line", "[Event=y] *"}},
	{"tag at the end", "[Event \"x\"", []string{"error: pgn: game 1, line 1: chess: invalid PGN: tag pair not closed with ] before the end of the text"}},
	{"bad NAG", "1. e4 $x e5 *\n1. d4 *", []string{"error: pgn: game 1, line 1: chess: invalid PGN: NAG: want $ and a number from 0 to 255", "d2d4 *"}},
	{"NAG too big", "1. e4 $256 *", []string{"error: pgn: game 1, line 1: chess: invalid PGN: NAG: want $ and a number from 0 to 255"}},
	{"NAG before the first move", "$1 1. e4 *", []string{"error: pgn: game 1, line 1: chess: invalid PGN: NAG $1 before the first move"}},
	{"too many annotation marks", "1. e4 !!! *", []string{`error: pgn: game 1, line 1: chess: invalid PGN: annotation "!!!": want one of ! ? !! ?? !? ?!`}},
	{"stray characters", "1. e4 \" e5 *\n1. d4 *", []string{`error: pgn: game 1, line 1: chess: invalid PGN: unexpected '"'`, "d2d4 *"}},
	{"percent inside a line", "1. e4 % e5 *", []string{`error: pgn: game 1, line 1: chess: invalid PGN: unexpected '%'`}},
	{"error in the third game", "1. e4 *\n1. d4 *\n[Event \"3\"]\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4 6. cxd4 Bb4+ 7. Bd2 Bxd2+\n8. Nbxd2 d5 9. exd5 Nxd5 10. Qb3 Nce7 11. O-O O-O 12. Rfe1 Nxe5 13. Rxe5 *\n[Event \"4\"]\n*",
		[]string{"e2e4 *", "d2d4 *", `error: pgn: game 3, move 12 (black) "Nxe5": chess: illegal move`, "[Event=4] *"}},
}

func TestPGNReader(t *testing.T) {
	for _, tc := range pgnReaderTests {
		t.Run(tc.name, func(t *testing.T) {
			got := readAllPGN(t, tc.in, English)
			// An error need only start with the wanted text: the SAN
			// parser's explanation that follows is its own business.
			match := len(got) == len(tc.want)
			for i := 0; match && i < len(got); i++ {
				match = got[i] == tc.want[i] || strings.HasPrefix(tc.want[i], "error: ") && strings.HasPrefix(got[i], tc.want[i])
			}
			if !match {
				t.Errorf("read %q:\ngot  %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestPGNReaderTurkish(t *testing.T) {
	// In Turkish K is the rook (Kale) and Ş the king (SPEC §1).
	in := "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n1. Kb1 Şd7 2. Şe2 Şc6 3. Kb6+ *"
	got := readAllPGN(t, in, Turkish)
	want := "[FEN=4k3/8/8/8/8/8/8/R3K3 w Q - 0 1] fen:4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 a1b1 e8d7 e1e2 d7c6 b1b6 *"
	if len(got) != 1 || got[0] != want {
		t.Errorf("read %q:\ngot  %q\nwant %q", in, got, want)
	}
}

func TestPGNErrorFields(t *testing.T) {
	in := "[Event \"1\"]\n1. e4 *\n\n[Event \"2\"]\n1. d4 *\n\n[Event \"3\"]\n" +
		"1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4 6. cxd4 Bb4+ 7. Bd2 Bxd2+\n" +
		"8. Nbxd2 d5 9. exd5 Nxd5 10. Qb3 Nce7 11. O-O O-O 12. Rfe1 Nxe5 *\n"
	r := NewPGNReader(strings.NewReader(in), English)
	for i := 0; i < 2; i++ {
		if _, err := r.Next(); err != nil {
			t.Fatalf("game %d: Next() = %v", i+1, err)
		}
	}
	_, err := r.Next()
	var pe *PGNError
	if !errors.As(err, &pe) {
		t.Fatalf("game 3: Next() = %v, want a *PGNError", err)
	}
	want := PGNError{Game: 3, Line: 9, MoveNumber: 12, Color: Black, SAN: "Nxe5"}
	if pe.Game != want.Game || pe.Line != want.Line || pe.MoveNumber != want.MoveNumber || pe.Color != want.Color || pe.SAN != want.SAN {
		t.Errorf("Next() = %+v, want %+v", *pe, want)
	}
	if !errors.Is(err, ErrIllegalMove) {
		t.Errorf("Next() = %v, want it to wrap ErrIllegalMove", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, `pgn: game 3, move 12 (black) "Nxe5": chess: illegal move`) {
		t.Errorf("Error() = %q, want it to name game 3, move 12 (black) and Nxe5", msg)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next() after the error = %v, want io.EOF", err)
	}
}

func TestPGNErrorSentinels(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"1. e4 e5 2. Ke3 *", ErrIllegalMove},
		{"1. e4 e5 2. e2e3 *", ErrIllegalMove},
		{"1. Xy *", ErrInvalidSAN},
		{"[FEN \"4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1\"]\n1. Nb3 *", ErrAmbiguousSAN},
		{"1. f3 e5 2. g4 Qh4# 3. a3 *", ErrMoveAfterEnd},
		{"[FEN \"x\"]\n1. e4 *", ErrInvalidFEN},
		{"1. e4 {", ErrInvalidPGN},
	}
	for _, tc := range tests {
		_, err := NewPGNReader(strings.NewReader(tc.in), English).Next()
		if !errors.Is(err, tc.want) {
			t.Errorf("Next() on %q = %v, want an error wrapping %v", tc.in, err, tc.want)
		}
	}
}

// errReader fails after its text.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		return n, e.err
	}
	return n, err
}

func TestPGNReaderIOError(t *testing.T) {
	boom := errors.New("boom")
	r := NewPGNReader(&errReader{strings.NewReader("1. e4 * 1. d4"), boom}, English)
	if _, err := r.Next(); err != nil {
		t.Fatalf("first Next() = %v", err)
	}
	for i := 0; i < 2; i++ {
		if _, err := r.Next(); err != boom {
			t.Errorf("Next() = %v, want the reader's error", err)
		}
	}
}

func TestPGNRecord(t *testing.T) {
	tests := []struct {
		in         string
		end        Termination
		ruleResult string
		result     string
	}{
		{"1. f3 e5 2. g4 Qh4# 0-1", Checkmate, "0-1", "0-1"},
		{"1. f3 e5 2. g4 Qh4# *", Checkmate, "0-1", "*"},
		{"1. e4 e5 1-0", NoTermination, "*", "1-0"},
		{"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2", ThreefoldRepetition, "1/2-1/2", "1/2-1/2"},
		{"[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n*", Stalemate, "1/2-1/2", "*"},
	}
	for _, tc := range tests {
		g, err := NewPGNReader(strings.NewReader(tc.in), English).Next()
		if err != nil {
			t.Fatalf("Next() on %q: %v", tc.in, err)
		}
		if got := g.Record.Termination(); got != tc.end {
			t.Errorf("%q: Record.Termination() = %v, want %v", tc.in, got, tc.end)
		}
		if got := g.Record.Result(); got != tc.ruleResult {
			t.Errorf("%q: Record.Result() = %q, want %q", tc.in, got, tc.ruleResult)
		}
		if g.Result != tc.result {
			t.Errorf("%q: Result = %q, want %q", tc.in, g.Result, tc.result)
		}
		if g.Record.Ply() != len(g.Moves) {
			t.Errorf("%q: Record.Ply() = %d, want %d", tc.in, g.Record.Ply(), len(g.Moves))
		}
	}
}

func TestPGNSAN(t *testing.T) {
	g, err := NewPGNReader(strings.NewReader("1. e2e4 e7e5 2. Ng1f3 Nb8c6 3. Bc4 Bc5 4. 0-0 Ke7 *"), English).Next()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range g.Moves {
		got = append(got, m.SAN)
	}
	want := "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Ke7"
	if strings.Join(got, " ") != want {
		t.Errorf("SANs = %q, want %q", strings.Join(got, " "), want)
	}
}

func readPGNFile(t *testing.T, path string) []*PGNGame {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []*PGNGame
	r := NewPGNReader(f, English)
	for {
		g, err := r.Next()
		if err == io.EOF {
			return games
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		games = append(games, g)
	}
}

func writePGNGames(t *testing.T, games []*PGNGame, l Letters) string {
	t.Helper()
	var b bytes.Buffer
	for _, g := range games {
		if err := WritePGN(&b, g, l); err != nil {
			t.Fatalf("WritePGN: %v", err)
		}
	}
	return b.String()
}

func TestWritePGNGolden(t *testing.T) {
	games := readPGNFile(t, "testdata/pgn_input.pgn")
	for _, l := range []Letters{English, Turkish} {
		t.Run(l.String(), func(t *testing.T) {
			got := writePGNGames(t, games, l)
			golden := filepath.Join("testdata", "pgn_write_"+l.String()+".golden")
			if *updatePGN {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("WritePGN output differs from %s (run with -update to accept):\n%s", golden, got)
			}
			for i, line := range strings.Split(got, "\n") {
				if n := len([]rune(line)); n > 80 && !strings.HasPrefix(line, "[") {
					t.Errorf("line %d has %d characters, want at most 80: %q", i+1, n, line)
				}
			}
		})
	}
}

func TestWritePGNRoundTrip(t *testing.T) {
	games := readPGNFile(t, "testdata/pgn_input.pgn")
	for _, l := range []Letters{English, Turkish} {
		t.Run(l.String(), func(t *testing.T) {
			text := writePGNGames(t, games, l)
			again := readAllPGN(t, text, l)
			if len(again) != len(games) {
				t.Fatalf("re-read %d games, want %d", len(again), len(games))
			}
			for i, g := range games {
				if want := summarizePGNForRoundTrip(g); again[i] != want {
					t.Errorf("game %d after write and read:\ngot  %s\nwant %s", i+1, again[i], want)
				}
			}
			// Writing what was read back gives the same text.
			r := NewPGNReader(strings.NewReader(text), l)
			var second []*PGNGame
			for {
				g, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				second = append(second, g)
			}
			if text2 := writePGNGames(t, second, l); text2 != text {
				t.Errorf("second write differs:\n%s\nfirst:\n%s", text2, text)
			}
		})
	}
}

// summarizePGNForRoundTrip summarises g as it reads back after WritePGN: the
// Seven Tag Roster first, with defaults and the Result tag set to the result.
func summarizePGNForRoundTrip(g *PGNGame) string {
	h := *g
	h.Tags = nil
	for _, t := range sevenTagRoster {
		v, ok := g.Tag(t.Name)
		if !ok {
			v = t.Value
		}
		if t.Name == "Result" {
			v = g.Result
		}
		h.Tags = append(h.Tags, PGNTag{t.Name, v})
	}
	for _, t := range g.Tags {
		if !isSevenTagRoster(t.Name) {
			h.Tags = append(h.Tags, t)
		}
	}
	return summarizePGN(&h)
}

func TestWritePGNTurkish(t *testing.T) {
	g, err := NewPGNReader(strings.NewReader("1. e4 e5 2. Nf3 Nc6 3. Bb5 Bc5 4. Ke2 Qf6 5. Rg1 Nge7 6. c3 O-O *"), English).Next()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePGN(&b, g, Turkish); err != nil {
		t.Fatal(err)
	}
	want := "1. e4 e5 2. Af3 Ac6 3. Fb5 Fc5 4. Şe2 Vf6 5. Kg1 Age7 6. c3 O-O *\n"
	if got := b.String(); !strings.HasSuffix(got, "\n\n"+want+"\n") {
		t.Errorf("WritePGN(Turkish) = %q, want movetext %q", got, want)
	}
}

func TestWritePGNMoveNumbers(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"white first", "1. e4 e5 2. Nf3 *", "1. e4 e5 2. Nf3 *"},
		{"black first", "[FEN \"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 12\"]\n12... Nf6 13. Nc3 *", "12... Nf6 13. Nc3 *"},
		{"after a comment", "1. e4 {best by test} e5 2. Nf3 $1 Nc6 *", "1. e4 {best by test} 1... e5 2. Nf3 $1 Nc6 *"},
		{"after a clock", "1. e4 {[%clk 0:03:00]} e5 {[%clk 0:03:00]} *", "1. e4 {[%clk 0:03:00]} 1... e5 {[%clk 0:03:00]} *"},
		{"fractional clock", "1. e4 {[%clk 0:00:03.50]} *", "1. e4 {[%clk 0:00:03.5]} *"},
		{"clock with a brace comment", "1. e4 {[%clk 0:03:00]} ; a } here\n e5 *", "1. e4 {[%clk 0:03:00]} ; a } here\n1... e5 *"},
		{"no moves", "*", "*"},
		{"game comment", "{hello} 1. e4 *", "{hello} 1. e4 *"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := NewPGNReader(strings.NewReader(tc.in), English).Next()
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WritePGN(&b, g, English); err != nil {
				t.Fatal(err)
			}
			_, movetext, _ := strings.Cut(b.String(), "\n\n")
			if want := tc.want + "\n\n"; movetext != want {
				t.Errorf("WritePGN movetext = %q, want %q", movetext, want)
			}
		})
	}
}

func TestWritePGNTags(t *testing.T) {
	g := &PGNGame{
		Tags:   []PGNTag{{"ECO", "C20"}, {"White", `Ali "the king" \ Veli`}, {"Result", "1-0"}},
		Result: "1/2-1/2",
	}
	var b bytes.Buffer
	if err := WritePGN(&b, g, English); err != nil {
		t.Fatal(err)
	}
	want := `[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "Ali \"the king\" \\ Veli"]
[Black "?"]
[Result "1/2-1/2"]
[ECO "C20"]

1/2-1/2

`
	if b.String() != want {
		t.Errorf("WritePGN =\n%s\nwant\n%s", b.String(), want)
	}

	p, err := ParseFEN("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40")
	if err != nil {
		t.Fatal(err)
	}
	g = &PGNGame{Start: p, Result: "*"}
	b.Reset()
	if err := WritePGN(&b, g, English); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n*\n") {
		t.Errorf("WritePGN from a FEN start =\n%s\nwant SetUp and FEN tags after the roster", b.String())
	}
}

func TestWritePGNErrors(t *testing.T) {
	tests := []struct {
		name string
		g    PGNGame
		want error
	}{
		{"illegal move", PGNGame{Moves: []PGNMove{{Move: NewMove(E2, E5)}}}, ErrIllegalMove},
		{"bad tag name", PGNGame{Tags: []PGNTag{{"Bad Name", "x"}}}, ErrInvalidPGN},
		{"line break in a tag", PGNGame{Tags: []PGNTag{{"Event", "a\nb"}}}, ErrInvalidPGN},
		{"bad NAG", PGNGame{Moves: []PGNMove{{Move: NewMove(E2, E4), NAGs: []int{256}}}}, ErrInvalidPGN},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		err := WritePGN(&b, &tc.g, English)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: WritePGN() = %v, want an error wrapping %v", tc.name, err, tc.want)
		}
		if b.Len() != 0 {
			t.Errorf("%s: WritePGN wrote %q before failing", tc.name, b.String())
		}
	}
}

func TestPGNClockCommand(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "[%clk 0:00:00]"},
		{5 * time.Minute, "[%clk 0:05:00]"},
		{time.Hour + 2*time.Minute + 3*time.Second + 400*time.Millisecond, "[%clk 1:02:03.4]"},
		{123*time.Hour + time.Nanosecond, "[%clk 123:00:00.000000001]"},
		{-time.Second, "[%clk 0:00:00]"},
	}
	for _, tc := range tests {
		if got := clockCommand(tc.d); got != tc.want {
			t.Errorf("clockCommand(%v) = %q, want %q", tc.d, got, tc.want)
		}
		if tc.d >= 0 {
			if d, ok := parseClock(strings.TrimSuffix(strings.TrimPrefix(tc.want, "[%clk "), "]")); !ok || d != tc.d {
				t.Errorf("parseClock(%q) = %v, %v, want %v", tc.want, d, ok, tc.d)
			}
		}
	}
}

// pgnGameCase is one line of testdata/pgn_games.jsonl: a game of
// ../shared/testdata/games.jsonl (random legal games by chess.js, endings
// checked against Stockfish) with only its final FEN kept.
type pgnGameCase struct {
	Start  string   `json:"start"`
	UCI    []string `json:"uci"`
	SAN    []string `json:"san"`
	FEN    string   `json:"fen"`
	End    string   `json:"end"`
	Result string   `json:"result"`
}

func readPGNGameCases(t *testing.T) []pgnGameCase {
	t.Helper()
	f, err := os.Open("testdata/pgn_games.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []pgnGameCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c pgnGameCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// pgnFromSAN builds the PGN text of a recorded game by hand, with move
// numbers and a FEN tag when needed.
func pgnFromSAN(c pgnGameCase) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Event \"games.jsonl\"]\n[Result \"%s\"]\n", c.Result)
	if c.Start != StartFEN {
		fmt.Fprintf(&b, "[SetUp \"1\"]\n[FEN \"%s\"]\n", c.Start)
	}
	b.WriteString("\n")
	p, _ := ParseFEN(c.Start)
	num, black := p.FullmoveNumber(), p.SideToMove() == Black
	for i, san := range c.SAN {
		switch {
		case !black:
			fmt.Fprintf(&b, "%d. ", num)
		case i == 0:
			fmt.Fprintf(&b, "%d... ", num)
		}
		b.WriteString(san + " ")
		if black {
			num++
		}
		black = !black
	}
	b.WriteString(c.Result + "\n")
	return b.String()
}

func TestPGNRecordedGames(t *testing.T) {
	cases := readPGNGameCases(t)
	var all strings.Builder
	for i, c := range cases {
		text := pgnFromSAN(c)
		all.WriteString(text + "\n")
		g, err := NewPGNReader(strings.NewReader(text), English).Next()
		if err != nil {
			t.Errorf("game %d: %v\n%s", i+1, err, text)
			continue
		}
		checkRecordedGame(t, i+1, g, c, English)

		// The same game written in Turkish reads back the same.
		for _, l := range []Letters{English, Turkish} {
			var b bytes.Buffer
			if err := WritePGN(&b, g, l); err != nil {
				t.Fatalf("game %d: WritePGN(%v): %v", i+1, l, err)
			}
			g2, err := NewPGNReader(&b, l).Next()
			if err != nil {
				t.Errorf("game %d: re-read in %v: %v", i+1, l, err)
				continue
			}
			checkRecordedGame(t, i+1, g2, c, l)
		}
	}

	// All of them in one stream.
	r := NewPGNReader(strings.NewReader(all.String()), English)
	for i, c := range cases {
		g, err := r.Next()
		if err != nil {
			t.Fatalf("stream game %d: %v", i+1, err)
		}
		checkRecordedGame(t, i+1, g, c, English)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next() after the last game = %v, want io.EOF", err)
	}
}

func checkRecordedGame(t *testing.T, n int, g *PGNGame, c pgnGameCase, l Letters) {
	t.Helper()
	var uci, san []string
	for _, m := range g.Moves {
		uci = append(uci, m.Move.String())
		san = append(san, m.SAN)
	}
	if got, want := strings.Join(uci, " "), strings.Join(c.UCI, " "); got != want {
		t.Errorf("game %d: moves %s, want %s", n, got, want)
	}
	if got, want := strings.Join(san, " "), strings.Join(c.SAN, " "); l == English && got != want {
		t.Errorf("game %d: SAN %s, want %s", n, got, want)
	}
	pos := g.Record.Position()
	if got := pos.FEN(); got != c.FEN {
		t.Errorf("game %d: final FEN %s, want %s", n, got, c.FEN)
	}
	if got := g.Record.Termination().String(); got != c.End {
		t.Errorf("game %d: end %s, want %s", n, got, c.End)
	}
	if got := g.Record.Result(); got != c.Result {
		t.Errorf("game %d: rules result %s, want %s", n, got, c.Result)
	}
	if g.Result != c.Result {
		t.Errorf("game %d: Result %s, want %s", n, g.Result, c.Result)
	}
}

// TestPGNLargeInputs reads inputs that once took quadratic time (many NAGs
// on one move, many comments, many [%clk, many tags): each must read and
// write in linear time, well under a second.
func TestPGNLargeInputs(t *testing.T) {
	const n = 50000
	var tags strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&tags, "[T%d \"v\"]\n", i)
	}
	tests := []struct {
		name  string
		in    string
		check func(g *PGNGame) bool
	}{
		{"NAGs", "1. e4 " + strings.Repeat("$1 ", n) + "*", func(g *PGNGame) bool { return len(g.Moves[0].NAGs) == n }},
		{"comments", "1. e4 " + strings.Repeat("{a}", n) + " *", func(g *PGNGame) bool { return len(g.Moves[0].Comment) == 2*n-1 }},
		{"clock commands", "1. e4 {" + strings.Repeat("[%clk ", n) + "]} *", func(g *PGNGame) bool { return !g.Moves[0].HasClock }},
		{"tags", tags.String() + "*", func(g *PGNGame) bool { return len(g.Tags) == n }},
		{"variations", "1. e4 " + strings.Repeat("(", n) + strings.Repeat(")", n) + " *", func(g *PGNGame) bool { return len(g.Moves) == 1 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := NewPGNReader(strings.NewReader(tc.in), English).Next()
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(g) {
				t.Errorf("game read wrongly: %d moves, %d tags", len(g.Moves), len(g.Tags))
			}
			if err := WritePGN(io.Discard, g, English); err != nil {
				t.Fatal(err)
			}
		})
	}
}
