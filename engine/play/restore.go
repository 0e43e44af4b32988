package play

import (
	"fmt"

	"satranc/engine/chess"
	"satranc/engine/game"
)

// sides are both sides, White first.
var sides = [2]chess.Color{chess.White, chess.Black}

// restore rebuilds the game of a record, replaying its moves. It applies no
// restart policy; see Service.open.
func (s *Service) restore(rec GameRecord) (*game.Game, error) {
	start := chess.StartPosition()
	if rec.StartFEN != "" {
		p, err := chess.ParseFEN(rec.StartFEN)
		if err != nil {
			return nil, fmt.Errorf("play: game %d: %w", rec.ID, err)
		}
		start = p
	}
	p := start
	moves := make([]game.MoveRecord, len(rec.Moves))
	for i, sm := range rec.Moves {
		if sm.Ply != i+1 {
			return nil, fmt.Errorf("play: game %d: %w: move %d stored as ply %d", rec.ID, game.ErrInvalid, i+1, sm.Ply)
		}
		m, err := p.ParseUCI(sm.UCI)
		if err != nil {
			return nil, fmt.Errorf("play: game %d, ply %d: %w", rec.ID, sm.Ply, err)
		}
		moves[i] = game.MoveRecord{Move: m, At: game.InstantOf(sm.At), Clock: sm.Clock}
		p = p.Play(m)
	}
	g, err := game.Restore(game.Saved{
		Options: game.Options{
			White: rec.White, Black: rec.Black, Control: rec.Control,
			Start: start, DisconnectGrace: s.grace, FirstMoveTime: s.first, JoinBy: s.joinBy(rec),
		},
		Status: rec.Status, StartedAt: rec.StartedAt, Moves: moves,
		Outcome: rec.Outcome, EndedAt: rec.EndedAt,
	})
	if err != nil {
		return nil, fmt.Errorf("play: game %d: %w", rec.ID, err)
	}
	return g, nil
}
