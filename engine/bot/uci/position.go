package uci

import (
	"fmt"
	"strings"

	"satranc/engine/chess"
)

// position runs `position startpos|fen <FEN> [moves m1 m2 ...]`. On an error
// the session keeps its previous position.
func (s *Session) position(args []string) error {
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
		for _, m := range rest[1:] {
			mv, err := p.ParseUCI(m)
			if err != nil {
				return err
			}
			keys = append(keys, p.Hash())
			p = p.Play(mv)
		}
	}
	s.pos, s.keys = p, keys
	return nil
}

// perft prints the move counts below each root move, then the total, as
// Stockfish's `go perft` does.
func (s *Session) perft(depth int) {
	if depth < 1 || depth > 10 {
		s.out.printf("info string error: go perft wants a depth from 1 to 10\n")
		return
	}
	var total uint64
	var b strings.Builder
	for _, e := range s.pos.Divide(depth) {
		fmt.Fprintf(&b, "%s: %d\n", e.Move, e.Nodes)
		total += e.Nodes
	}
	s.out.printf("%s\nNodes searched: %d\n\n", b.String(), total)
}

// display prints the board, the FEN, the key and the checkers, as
// Stockfish's `d` does.
func (s *Session) display() {
	var b strings.Builder
	b.WriteString("\n +---+---+---+---+---+---+---+---+\n")
	for r := 7; r >= 0; r-- {
		for f := range 8 {
			fmt.Fprintf(&b, " | %c", s.pos.PieceAt(chess.NewSquare(f, r)).FENLetter())
		}
		fmt.Fprintf(&b, " | %d\n +---+---+---+---+---+---+---+---+\n", r+1)
	}
	b.WriteString("   a   b   c   d   e   f   g   h\n\n")
	fmt.Fprintf(&b, "Fen: %s\nKey: %016X\nCheckers:", s.pos.FEN(), s.pos.Hash())
	for c := s.pos.Checkers(); c != 0; {
		fmt.Fprintf(&b, " %s", c.PopFirst())
	}
	s.out.printf("%s\n\n", b.String())
}
