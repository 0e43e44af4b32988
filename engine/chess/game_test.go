package chess

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// recordedGame is one line of testdata/games.jsonl: a random legal game made
// by chess.js with its FIDE ending, checked against Stockfish (see
// ../shared/testdata/README.md).
type recordedGame struct {
	Start       string   `json:"start"`
	UCI         []string `json:"uci"`
	SAN         []string `json:"san"`
	FENs        []string `json:"fens"`
	LegalCounts []int    `json:"legal_counts"`
	End         string   `json:"end"`
	Result      string   `json:"result"`
}

func readRecordedGames(t testing.TB) []recordedGame {
	t.Helper()
	f, err := os.Open("testdata/games.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []recordedGame
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var g recordedGame
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatalf("games.jsonl line %d: %v", len(games)+1, err)
		}
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return games
}

// TestRecordedGames replays every game: at every ply the legal move count and
// the FEN agree, and the rules end the game exactly where the record does.
func TestRecordedGames(t *testing.T) {
	games := readRecordedGames(t)
	if len(games) < 1000 {
		t.Fatalf("read %d games, want the full set", len(games))
	}
	for i, rec := range games {
		start, err := ParseFEN(rec.Start)
		if err != nil {
			t.Errorf("game %d: ParseFEN(%q): %v", i+1, rec.Start, err)
			continue
		}
		g := NewGame(start)
		ok := true
		for ply, uci := range rec.UCI {
			p := g.Position()
			if n := len(p.LegalMoves()); n != rec.LegalCounts[ply] {
				t.Errorf("game %d ply %d: %d legal moves in %s, want %d", i+1, ply, n, p.FEN(), rec.LegalCounts[ply])
				ok = false
				break
			}
			if g.Termination() != NoTermination {
				t.Errorf("game %d ply %d: ended early by %s, record goes on with %s", i+1, ply, g.Termination(), uci)
				ok = false
				break
			}
			m, err := p.ParseUCI(uci)
			if err != nil {
				t.Errorf("game %d ply %d: ParseUCI(%s) in %s: %v", i+1, ply, uci, p.FEN(), err)
				ok = false
				break
			}
			if err := g.Play(m); err != nil {
				t.Errorf("game %d ply %d: Play(%s): %v", i+1, ply, uci, err)
				ok = false
				break
			}
			after := g.Position()
			if got := after.FEN(); got != rec.FENs[ply] {
				t.Errorf("game %d ply %d: FEN after %s = %s, want %s", i+1, ply, uci, got, rec.FENs[ply])
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		final := g.Position()
		if n := len(final.LegalMoves()); n != rec.LegalCounts[len(rec.UCI)] {
			t.Errorf("game %d: %d legal moves at the end, want %d", i+1, n, rec.LegalCounts[len(rec.UCI)])
		}
		if got := g.Termination().String(); got != rec.End {
			t.Errorf("game %d: ends by %s, want %s", i+1, got, rec.End)
		}
		if got := g.Result(); got != rec.Result {
			t.Errorf("game %d: result %s, want %s", i+1, got, rec.Result)
		}
	}
}
