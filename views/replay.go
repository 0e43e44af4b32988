package views

import (
	"strconv"

	"satranc/engine/chess"
	"satranc/engine/play"
)

// ReplayView is the replay page of a game that is over: the board after
// Ply half-moves, with links to step through the moves.
type ReplayView struct {
	// Game is the game as its page would show it to a spectator: players,
	// move list and how it ended.
	Game  GameView
	Ply   int
	Plies int
	Board BoardView
	// SAN lists the moves, for the links of the move list.
	SAN []string
}

// NewReplayView builds the replay of snap after ply half-moves (clamped
// to the game's length).
func NewReplayView(snap play.Snapshot, ply int, in GameViewInput) ReplayView {
	in.Viewer = 0
	v := ReplayView{Game: NewGameView(snap, in), Plies: len(snap.Moves), Ply: min(max(ply, 0), len(snap.Moves))}
	v.SAN = snap.SAN(in.Letters)
	p := snap.Start
	for _, m := range snap.Moves[:v.Ply] {
		p = p.Play(m.Move)
	}
	v.Board = NewBoardView(p, chess.White)
	if v.Ply > 0 {
		v.Board = v.Board.WithLastMove(snap.Moves[v.Ply-1].Move)
	}
	return v
}

// StepPath returns the replay's path at ply.
func (v ReplayView) StepPath(ply int) string {
	return ReplayPath(v.Game.ID) + "?ply=" + strconv.Itoa(min(max(ply, 0), v.Plies))
}

// PGNPath returns the path of the game's PGN download.
func (v ReplayView) PGNPath() string { return v.Game.Path("/pgn") }

// ReplayMove is one move of the replay's move list.
type ReplayMove struct {
	Ply    int // the ply after the move
	Number int
	White  bool
	SAN    string
}

// MoveList returns the moves with their plies and move numbers.
func (v ReplayView) MoveList() []ReplayMove {
	out := make([]ReplayMove, len(v.SAN))
	number, white := 1, true
	if len(v.Game.Moves) > 0 {
		number = v.Game.Moves[0].Number
		white = v.Game.Moves[0].White != ""
	}
	for i, san := range v.SAN {
		out[i] = ReplayMove{Ply: i + 1, Number: number, White: white, SAN: san}
		if !white {
			number++
		}
		white = !white
	}
	return out
}
