package views

import (
	"strconv"
	"time"

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
// to the game's length) for in.Viewer: a player of the game sees their
// own side at the bottom, anyone else White. Otherwise the viewer is a
// spectator: the replay offers nothing a player could do.
func NewReplayView(snap play.Snapshot, ply int, in GameViewInput) ReplayView {
	bottom := chess.White
	if side, ok := snap.SideOf(in.Viewer); ok {
		bottom = side
	}
	in.Viewer = 0
	v := ReplayView{Plies: len(snap.Moves), Ply: min(max(ply, 0), len(snap.Moves))}
	p := snap.Start
	for _, m := range snap.Moves[:v.Ply] {
		p = p.Play(m.Move)
	}
	at := snap
	at.Position = p
	v.Game = NewGameView(snap, in)
	if v.Ply < v.Plies {
		v.Game.Top, v.Game.Bottom = NewPlayerViews(at, in) // the material at ply
		v.Game.Top.Clock.Remaining = clockAt(snap, v.Ply, v.Game.Top.Side)
		v.Game.Bottom.Clock.Remaining = clockAt(snap, v.Ply, v.Game.Bottom.Side)
	}
	if bottom == chess.Black {
		v.Game.Top, v.Game.Bottom = v.Game.Bottom, v.Game.Top
	}
	v.SAN = snap.SAN(in.Letters)
	v.Board = positionBoard(snap, p, v.Ply, bottom)
	return v
}

// NewPositionBoard returns the board of snap after ply half-moves
// (clamped to the game's length) with the last move marked, for viewer:
// their own side at the bottom, White for anyone else. The game page shows
// it while its reader steps back through the moves (static/js/movelist.js).
func NewPositionBoard(snap play.Snapshot, ply int, viewer int64) BoardView {
	ply = min(max(ply, 0), len(snap.Moves))
	bottom := chess.White
	if side, ok := snap.SideOf(viewer); ok {
		bottom = side
	}
	p := snap.Start
	for _, m := range snap.Moves[:ply] {
		p = p.Play(m.Move)
	}
	return positionBoard(snap, p, ply, bottom)
}

// positionBoard draws p, the position of snap after ply half-moves.
func positionBoard(snap play.Snapshot, p chess.Position, ply int, bottom chess.Color) BoardView {
	b := NewBoardView(p, bottom)
	if ply > 0 {
		b = b.WithLastMove(snap.Moves[ply-1].Move)
	}
	return b
}

// clockAt returns side's clock after ply half-moves of snap: as the side's
// last move by then left it, or the starting time before its first.
func clockAt(snap play.Snapshot, ply int, side chess.Color) time.Duration {
	mover := snap.Start.SideToMove()
	for i := ply - 1; i >= 0; i-- {
		if (i%2 == 0) == (mover == side) {
			return snap.Moves[i].Clock
		}
	}
	return snap.Control.Initial
}

// White returns the player of White, for the replay's title.
func (v ReplayView) White() PlayerView { return v.side(chess.White) }

// Black returns the player of Black.
func (v ReplayView) Black() PlayerView { return v.side(chess.Black) }

func (v ReplayView) side(c chess.Color) PlayerView {
	if v.Game.Top.Side == c {
		return v.Game.Top
	}
	return v.Game.Bottom
}

// StepPath returns the replay's path at ply.
func (v ReplayView) StepPath(ply int) string {
	return ReplayPath(v.Game.ID) + "?ply=" + strconv.Itoa(min(max(ply, 0), v.Plies))
}

// PGNPath returns the path of the game's PGN download.
func (v ReplayView) PGNPath() string { return v.Game.Path("/pgn") }
