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

// TestRecordedGames replays every game of testdata/games.jsonl (a copy of
// ../shared/testdata/games.jsonl): at every ply the legal move count, the
// SAN (written, and read back, in both sets of letters), the FEN after the
// move and the incrementally kept Zobrist key agree, and the rules end the
// game exactly where the record does, no earlier and no later.
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
		if len(rec.SAN) != len(rec.UCI) || len(rec.FENs) != len(rec.UCI) || len(rec.LegalCounts) != len(rec.UCI)+1 {
			t.Fatalf("game %d: %d moves but %d SAN, %d FENs and %d legal counts", i+1, len(rec.UCI), len(rec.SAN), len(rec.FENs), len(rec.LegalCounts))
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
			if !recordedSANAgrees(t, i+1, ply, p, m, rec.SAN[ply]) {
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
			if after.Hash() != after.computeHash() {
				t.Errorf("game %d ply %d: Zobrist key after %s differs from the one computed afresh in %s", i+1, ply, uci, rec.FENs[ply])
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

// recordedSANAgrees checks move m of a recorded game in p against the
// record's SAN: written in English it is want, want reads back as m, and
// the Turkish spelling reads back as m too. It reports any difference.
func recordedSANAgrees(t *testing.T, game, ply int, p Position, m Move, want string) bool {
	t.Helper()
	if got := p.SAN(m, English); got != want {
		t.Errorf("game %d ply %d: SAN(%s) = %q, want %q in %s", game, ply, m, got, want, p.FEN())
		return false
	}
	if got, err := p.ParseSAN(want, English); err != nil || got != m {
		t.Errorf("game %d ply %d: ParseSAN(%q) = %v, %v, want %s in %s", game, ply, want, got, err, m, p.FEN())
		return false
	}
	tr := p.SAN(m, Turkish)
	if got, err := p.ParseSAN(tr, Turkish); err != nil || got != m {
		t.Errorf("game %d ply %d: ParseSAN(%q, Turkish) = %v, %v, want %s in %s", game, ply, tr, got, err, m, p.FEN())
		return false
	}
	return true
}

// TestGameReplaysPositions: the record keeps only the start and current
// positions, so PositionAt and History replay the moves; for every
// recorded game they give the positions and keys seen while it was
// played, and Start the start.
func TestGameReplaysPositions(t *testing.T) {
	for i, rec := range readRecordedGames(t) {
		start, err := ParseFEN(rec.Start)
		if err != nil {
			t.Fatalf("game %d: ParseFEN(%q): %v", i+1, rec.Start, err)
		}
		g := NewGame(start)
		seen := []Position{start}
		for _, uci := range rec.UCI {
			p := g.Position()
			m, err := p.ParseUCI(uci)
			if err != nil {
				t.Fatalf("game %d: ParseUCI(%s): %v", i+1, uci, err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("game %d: Play(%s): %v", i+1, uci, err)
			}
			seen = append(seen, g.Position())
		}
		if got := g.Start(); got != start {
			t.Errorf("game %d: Start = %s, want %s", i+1, got.FEN(), start.FEN())
		}
		for ply, want := range seen {
			if got := g.PositionAt(ply); got != want {
				t.Fatalf("game %d: PositionAt(%d) = %s, want %s", i+1, ply, got.FEN(), want.FEN())
			}
		}
		hist := g.History()
		if len(hist) != g.Ply() {
			t.Fatalf("game %d: History has %d keys, want %d", i+1, len(hist), g.Ply())
		}
		for ply, key := range hist {
			if key != seen[ply].Hash() {
				t.Fatalf("game %d: History()[%d] = %#x, want %#x", i+1, ply, key, seen[ply].Hash())
			}
		}
	}
}

// TestRepetitionKeyCollision: an earlier position whose Zobrist key equals
// the current one's but whose pieces differ is not a repetition, so a key
// collision cannot end a game.
func TestRepetitionKeyCollision(t *testing.T) {
	g := NewGame(StartPosition())
	playUCI(t, g, "g1f3", "g8f6", "b1c3", "b8c6")
	if got := g.repetitions(); got != 1 {
		t.Fatalf("repetitions() = %d before the forgery, want 1", got)
	}
	// Forge collisions: the start and the position after 1. Nf3 Nf6 get
	// the current position's key.
	g.since[0], g.since[2] = g.pos.hash, g.pos.hash
	if got := g.repetitions(); got != 1 {
		t.Errorf("repetitions() = %d with two forged key matches, want 1", got)
	}
	// The same keys on the same positions do count: the position after
	// 2. Nc3 Nc6 comes again (the forged keys still do not count), and
	// the one after 2. Nc3 a third time.
	playUCI(t, g, "c3b1", "c6b8", "b1c3", "b8c6")
	if got := g.repetitions(); got != 2 || g.Termination() != NoTermination {
		t.Fatalf("second occurrence: repetitions() = %d, Termination = %s, want 2 and none", got, g.Termination())
	}
	playUCI(t, g, "c3b1", "c6b8", "b1c3")
	if g.Termination() != ThreefoldRepetition {
		t.Errorf("third occurrence: Termination = %s, want threefold", g.Termination())
	}
}
