package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"satranc/engine/chess"
)

func runPGNString(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = runPGN(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestPGNCommandNormalises(t *testing.T) {
	in := "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[Termination \"normal\"]\n[ECO \"C20\"]\n\n" +
		"1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6?? 4.Qxf7# *\n\n" +
		"1. d4 d5 1-0\n\n" +
		"[Event \"Draw\"]\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8\n"
	code, stdout, stderr := runPGNString(t, in)
	if code != 0 || stderr != "" {
		t.Fatalf("runPGN = %d, stderr %q; want 0 and nothing", code, stderr)
	}
	want := `[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "A"]
[Black "B"]
[Result "1-0"]
[Termination "checkmate"]
[ECO "C20"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 $4 4. Qxf7# 1-0

[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]
[Termination "unterminated"]

1. d4 d5 1-0

[Event "Draw"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1/2-1/2"]
[Termination "threefold repetition"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2

`
	if stdout != want {
		t.Errorf("runPGN stdout =\n%s\nwant\n%s", stdout, want)
	}
}

func TestPGNCommandTerminations(t *testing.T) {
	tests := []struct {
		name, in, tag string
	}{
		{"stalemate", "[FEN \"7k/8/6Q1/8/8/8/8/K7 w - - 0 1\"]\n1. Qf7 *", "stalemate"},
		{"insufficient material", "[FEN \"4k3/8/8/8/8/8/3r4/4K3 w - - 0 1\"]\n1. Kxd2 *", "insufficient material"},
		{"fifty-move rule", "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 99 80\"]\n80. Ra2 *", "fifty-move rule"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runPGNString(t, tc.in)
			if code != 0 {
				t.Fatalf("runPGN = %d, stderr %q", code, stderr)
			}
			if !strings.Contains(stdout, "[Result \"1/2-1/2\"]\n") || !strings.Contains(stdout, "[Termination \""+tc.tag+"\"]\n") {
				t.Errorf("runPGN stdout =\n%s\nwant Result 1/2-1/2 and Termination %q", stdout, tc.tag)
			}
		})
	}
}

func TestPGNCommandTurkish(t *testing.T) {
	// Input in Turkish letters (K is the rook), output in Turkish.
	in := "1. e4 e5 2. Af3 Ac6 3. Fb5 Fc5 4. O-O Af6 5. Ke1 Şf8 6. Şf1 *"
	code, stdout, stderr := runPGNString(t, in, "--lang", "tr")
	if code != 0 {
		t.Fatalf("runPGN = %d, stderr %q", code, stderr)
	}
	if want := "\n1. e4 e5 2. Af3 Ac6 3. Fb5 Fc5 4. O-O Af6 5. Ke1 Şf8 6. Şf1 *\n\n"; !strings.HasSuffix(stdout, want) {
		t.Errorf("runPGN --lang tr stdout =\n%s\nwant it to end with %q", stdout, want)
	}

	// English input read as Turkish: K is the rook, so Ke2 is illegal, and
	// the message says how to read English letters.
	code, _, stderr = runPGNString(t, "1. e4 e5 2. Ke2 *", "--lang", "tr")
	if code != 1 || !strings.Contains(stderr, `game 1, move 2 (white) "Ke2"`) || !strings.Contains(stderr, "add --from en") {
		t.Errorf("runPGN --lang tr on English = %d, stderr %q; want 1, the move named and the hint", code, stderr)
	}

	// English input, read and written in English.
	code, stdout, _ = runPGNString(t, "1. e4 e5 2. Ke2 Qh4 *", "--lang", "en")
	if code != 0 || !strings.Contains(stdout, "2. Ke2 Qh4 *") {
		t.Errorf("runPGN --lang en = %d, stdout %q", code, stdout)
	}

	// English input turned into Turkish: the king's K becomes Ş, the rook's
	// R becomes K, and so on.
	wantTR := "1. e4 e5 2. Af3 Ac6 3. Fc4 Fc5 4. O-O Af6 5. Ke1 O-O 6. Şh1 d6 7. Ve2 Şh8"
	code, stdout, stderr = runPGNString(t, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Re1 O-O 6. Kh1 d6 7. Qe2 Kh8 *", "--lang", "tr", "--from", "en")
	if code != 0 || !strings.HasSuffix(stdout, "\n"+wantTR+" *\n\n") {
		t.Errorf("runPGN --lang tr --from en = %d, stderr %q, stdout\n%s\nwant the moves %q", code, stderr, stdout, wantTR)
	}

	// And back: Turkish input written in English letters.
	code, stdout, stderr = runPGNString(t, wantTR+" *", "--lang", "en", "--from", "tr")
	if want := "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Re1 O-O 6. Kh1 d6 7. Qe2 Kh8 *"; code != 0 || !strings.HasSuffix(stdout, "\n"+want+"\n\n") {
		t.Errorf("runPGN --lang en --from tr = %d, stderr %q, stdout\n%s\nwant the moves %q", code, stderr, stdout, want)
	}

	// --format json writes the SAN in the letters of --lang, whatever
	// the input's.
	code, stdout, stderr = runPGNString(t, "1. e4 e5 2. Ke2 Qh4 3. Nf3 Bc5 *", "--lang", "tr", "--from", "en", "--format", "json")
	if want := `{"san":["e4","e5","Şe2","Vh4","Af3","Fc5"],`; code != 0 || !strings.HasPrefix(stdout, want) {
		t.Errorf("runPGN --format json --lang tr --from en = %d, stderr %q, stdout %s; want it to begin %s", code, stderr, stdout, want)
	}
}

func TestPGNCommandJSON(t *testing.T) {
	in := "1. f3 e5 2. g4 Qh4# *\n\n" +
		"[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n40... Şd7 41. Şf2 0-1\n\n" +
		"*\n"
	code, stdout, stderr := runPGNString(t, in, "--format", "json", "--lang", "tr")
	if code != 0 {
		t.Fatalf("runPGN = %d, stderr %q", code, stderr)
	}
	want := []chess.PGNSummary{
		{SAN: []string{"f3", "e5", "g4", "Vh4#"}, UCI: []string{"f2f3", "e7e5", "g2g4", "d8h4"},
			FEN: "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", End: "checkmate", Result: "0-1"},
		{SAN: []string{"Şd7", "Şf2"}, UCI: []string{"e8d7", "e1f2"},
			FEN: "8/3k4/8/8/8/8/4PK2/8 b - - 2 41", End: "none", Result: "0-1"},
		{SAN: []string{}, UCI: []string{}, FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", End: "none", Result: "*"},
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("runPGN --format json wrote %d lines, want %d:\n%s", len(lines), len(want), stdout)
	}
	for i, line := range lines {
		var got chess.PGNSummary
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d %q: %v", i+1, line, err)
		}
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(want[i])
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("line %d = %s, want %s", i+1, gotJSON, wantJSON)
		}
	}
	// The field names and order are the contract.
	if !strings.HasPrefix(lines[2], `{"san":[],"uci":[],"fen":"`) || !strings.HasSuffix(lines[2], `","end":"none","result":"*"}`) {
		t.Errorf("line 3 = %s, want the fields san, uci, fen, end, result in that order", lines[2])
	}
	if !strings.Contains(lines[0], `"Vh4#"`) {
		t.Errorf("line 1 = %s, want the Turkish letter unescaped", lines[0])
	}
}

func TestPGNCommandIllegalMove(t *testing.T) {
	in := "[Event \"1\"]\n1. e4 e5 *\n\n[Event \"2\"]\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 Nbd7 7. Rc1 c6 8. Bd3 dxc4 9. Qd4 Nd5 *\n\n[Event \"3\"]\n1. c4 *\n"
	for _, format := range []string{"pgn", "json"} {
		code, stdout, stderr := runPGNString(t, in, "--format", format)
		if code != 1 {
			t.Errorf("--format %s: runPGN = %d, want 1", format, code)
		}
		if want := `satranc pgn: game 2, move 9 (white) "Qd4": chess: illegal move`; !strings.Contains(stderr, want) {
			t.Errorf("--format %s: stderr = %q, want it to contain %q", format, stderr, want)
		}
		if n := strings.Count(stderr, "\n"); n != 1 {
			t.Errorf("--format %s: stderr has %d lines, want 1: %q", format, n, stderr)
		}
		// The game before the error is written; nothing after it.
		if !strings.Contains(stdout, "e4") || strings.Contains(stdout, "d4") || strings.Contains(stdout, "c4") {
			t.Errorf("--format %s: stdout = %q, want game 1 only", format, stdout)
		}
	}
}

func TestPGNCommandErrors(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		in         string
		code       int
		wantStderr string
	}{
		{"bad flag", []string{"--nope"}, "", 2, "flag provided but not defined"},
		{"bad lang", []string{"--lang", "de"}, "", 2, `--lang "de": want en or tr`},
		{"bad format", []string{"--format", "xml"}, "", 2, `--format "xml": want pgn or json`},
		{"bad from", []string{"--from", "de"}, "", 2, `--from "de": want en or tr`},
		{"extra argument", []string{"games.pgn"}, "", 2, `unexpected argument "games.pgn"`},
		{"help", []string{"-h"}, "", 0, "Usage: satranc pgn"},
		{"unparsable move", nil, "1. e4 e5 2. Zz3 *", 1, `satranc pgn: game 1, move 2 (white) "Zz3": chess: invalid SAN`},
		{"move after mate", nil, "1. f3 e5 2. g4 Qh4# 3. a3 *", 1, `satranc pgn: game 1, move 3 (white) "a3": chess: move after the end of the game by checkmate`},
		{"syntax error", nil, "1. e4 {", 1, "satranc pgn: game 1, line 1: chess: invalid PGN"},
		{"empty input", nil, "", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runPGNString(t, tc.in, tc.args...)
			if code != tc.code {
				t.Errorf("runPGN(%q) = %d, want %d; stderr %q", tc.args, code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("runPGN(%q) stderr = %q, want it to contain %q", tc.args, stderr, tc.wantStderr)
			}
			if tc.code == 2 && !strings.Contains(stderr, "Usage: satranc pgn") {
				t.Errorf("runPGN(%q) stderr = %q, want the usage", tc.args, stderr)
			}
		})
	}
}

func TestPGNCommandCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	if code := runPGN(ctx, nil, strings.NewReader("1. e4 *"), &out, &errOut); code != 1 {
		t.Errorf("runPGN with a cancelled context = %d, want 1", code)
	}
}
