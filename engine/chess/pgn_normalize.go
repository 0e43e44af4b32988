package chess

// Normalising a game that the PGN reader replayed: what `satranc pgn` writes
// back. The rules decide the result when they ended the game; otherwise the
// input's result (a resignation, say, or "*") stands.

// PGNSummary is a replayed game in brief, as `satranc pgn --format json`
// writes it (DESIGN.md, "The CLI contract").
type PGNSummary struct {
	SAN    []string `json:"san"`
	UCI    []string `json:"uci"`
	FEN    string   `json:"fen"`
	End    string   `json:"end"`
	Result string   `json:"result"`
}

// RulesResult is the result the rules decided, if they ended g, and
// otherwise g.Result. g must come from a PGNReader (g.Record set).
func (g *PGNGame) RulesResult() string {
	if g.Record.Termination() != NoTermination {
		return g.Record.Result()
	}
	return g.Result
}

// Normalize sets g's Result, its Result tag and its Termination tag from
// the rules (RulesResult and the Termination's Description), and returns g.
// g must come from a PGNReader.
func (g *PGNGame) Normalize() *PGNGame {
	g.Result = g.RulesResult()
	g.SetTag("Result", g.Result)
	g.SetTag("Termination", g.Record.Termination().Description())
	return g
}

// Summary returns g in brief, with the SAN in the letters l. g must come
// from a PGNReader.
func (g *PGNGame) Summary(l Letters) PGNSummary {
	s := PGNSummary{
		SAN:    make([]string, 0, len(g.Moves)),
		UCI:    make([]string, 0, len(g.Moves)),
		End:    g.Record.Termination().String(),
		Result: g.RulesResult(),
	}
	// The record keeps no position per ply: walk them from the start.
	before := g.Record.Start()
	for _, m := range g.Moves {
		s.SAN = append(s.SAN, before.SAN(m.Move, l))
		s.UCI = append(s.UCI, m.Move.String())
		before.play(m.Move)
	}
	final := g.Record.Position()
	s.FEN = final.FEN()
	return s
}
