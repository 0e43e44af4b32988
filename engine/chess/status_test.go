package chess

import (
	"errors"
	"testing"
)

func mustFEN(t testing.TB, fen string) Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

func TestInsufficientMaterial(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want bool
	}{
		{"K v K", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"K+B v K", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},
		{"K v K+B", "2b1k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"K+N v K", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true},
		{"K v K+N", "1n2k3/8/8/8/8/8/8/4K3 b - - 0 1", true},
		{"K+B v K+B same colour", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},
		{"K+B v K+B opposite colours", "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false},
		{"K+B+B v K same colour", "4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1", false},
		{"K+N+N v K", "4k3/8/8/8/8/8/8/NN2K3 w - - 0 1", false},
		{"K+N v K+N", "4kn2/8/8/8/8/8/8/1N2K3 w - - 0 1", false},
		{"K+B v K+N", "4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1", false},
		{"K+P v K", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
		{"K+R v K", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false},
		{"K+Q v K", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			if got := p.InsufficientMaterial(); got != tc.want {
				t.Errorf("InsufficientMaterial(%s) = %v, want %v", tc.fen, got, tc.want)
			}
		})
	}
}

func TestTimeoutIsDraw(t *testing.T) {
	tests := []struct {
		fen     string
		flagged Color
		want    bool
	}{
		{"4k3/8/8/8/8/8/8/Q3K3 b - - 0 1", Black, false}, // black flags against a queen: loss
		{"4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", White, true},  // white flags against a lone king
		{"4kb2/8/8/8/8/8/8/Q3K3 w - - 0 1", White, true}, // ... against king and bishop
		{"4kn2/8/8/8/8/8/8/Q3K3 w - - 0 1", White, true}, // ... against king and knight
		{"3nkn2/8/8/8/8/8/8/Q3K3 w - - 0 1", White, false},
		{"4k3/4p3/8/8/8/8/8/Q3K3 w - - 0 1", White, false},
		{"4kr2/8/8/8/8/8/8/Q3K3 w - - 0 1", White, false},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		if got := p.TimeoutIsDraw(tc.flagged); got != tc.want {
			t.Errorf("TimeoutIsDraw(%s, %s flagged) = %v, want %v", tc.fen, tc.flagged, got, tc.want)
		}
	}
}

// playUCI plays moves given in UCI on g, failing the test on any error.
func playUCI(t *testing.T, g *Game, moves ...string) {
	t.Helper()
	for _, s := range moves {
		p := g.Position()
		m, err := p.ParseUCI(s)
		if err != nil {
			t.Fatalf("ParseUCI(%s) in %s: %v", s, p.FEN(), err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("Play(%s): %v", s, err)
		}
	}
}

func TestGameEndings(t *testing.T) {
	tests := []struct {
		name   string
		start  string
		moves  []string
		want   Termination
		result string
	}{
		{"fool's mate", StartFEN, []string{"f2f3", "e7e5", "g2g4", "d8h4"}, Checkmate, "0-1"},
		{"stalemate", "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", []string{"g1g6"}, Stalemate, "1/2-1/2"},
		{"capture leaves K v K", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", []string{"e1d2"}, InsufficientMaterial, "1/2-1/2"},
		{"fifty moves", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", []string{"a1a2"}, FiftyMoveRule, "1/2-1/2"},
		// Mate on the hundredth half-move: the mate stands (FIDE Laws 9.3, 5.1.1).
		{"mate on the fiftieth move", "7k/8/6K1/8/8/8/8/R7 w - - 99 80", []string{"a1a8"}, Checkmate, "1-0"},
		{"threefold", StartFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, ThreefoldRepetition, "1/2-1/2"},
		{"twofold is not enough", StartFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8"}, NoTermination, "*"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGame(mustFEN(t, tc.start))
			playUCI(t, g, tc.moves...)
			if got := g.Termination(); got != tc.want {
				t.Errorf("Termination = %s, want %s", got, tc.want)
			}
			if got := g.Result(); got != tc.result {
				t.Errorf("Result = %s, want %s", got, tc.result)
			}
		})
	}
}

// TestRepetitionEnPassant follows FIDE Laws 9.2.3: a position with a legal
// en-passant capture differs from the same placement without one, but an
// en-passant right that cannot be used does not count.
func TestRepetitionEnPassant(t *testing.T) {
	// After 1. e4 the e3 square cannot be taken on: the position equals the
	// one reached after the knights go out and back twice.
	g := NewGame(StartPosition())
	playUCI(t, g, "e2e4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1")
	if g.Termination() != ThreefoldRepetition {
		t.Errorf("unusable en-passant right: Termination = %s, want threefold", g.Termination())
	}

	// Here d5 can be taken en passant right after ...d7d5, so that first
	// occurrence is a different position: the placement returns at plies 5
	// and 9 without ending the game, while the position after ply 2 is
	// repeated for the third time at ply 10.
	g = NewGame(mustFEN(t, "4k3/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1"))
	playUCI(t, g, "d7d5", "g1f3", "e8d8", "f3g1", "d8e8", "g1f3", "e8d8", "f3g1", "d8e8")
	if g.Termination() != NoTermination {
		t.Errorf("placement after ...d5 seen thrice, once with en passant: Termination = %s, want none", g.Termination())
	}
	playUCI(t, g, "g1f3")
	if g.Termination() != ThreefoldRepetition {
		t.Errorf("third occurrence of a position without en passant: Termination = %s, want threefold", g.Termination())
	}
}

func TestGamePlayRejects(t *testing.T) {
	g := NewGame(StartPosition())
	if err := g.Play(NewMove(E2, E5)); err == nil {
		t.Error("Play(e2e5) from the start: no error")
	}
	playUCI(t, g, "f2f3", "e7e5", "g2g4", "d8h4")
	if err := g.Play(NewMove(A2, A3)); !errors.Is(err, ErrMoveAfterEnd) {
		t.Errorf("Play after checkmate = %v, want ErrMoveAfterEnd", err)
	}
}
