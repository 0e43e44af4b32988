// Package game is one game's state machine: the position (a chess.Game
// record), the two clocks and the two seats, and everything that can end a
// game besides the rules of play: resignation, draw by agreement, time,
// leaving the table, disconnection, the first-move limit and the abort rule
// (SPEC sections 3, 4 and 8). The clocks start once both sides have made
// their first move; until then each side has Options.FirstMoveTime for it,
// and one that does not move in time aborts the game (NoFirstMove).
//
// It is pure and single-threaded: no goroutines, no I/O, and the current
// time is a parameter of every method. Each method returns the Events it
// caused, in order; the caller (engine/play) persists and publishes them.
//
//	g := game.New(game.Options{White: game.Human(1), Black: game.Human(2),
//		Control: clock.MustParse("3+2")}, now)
//	evs, err := g.Move(chess.White, m, 0, now) // 0: the ply the mover saw
//	evs = g.Tick(later)                          // flag fall, disconnection
//
// Every method first applies what the clock says at now (as Tick does), so a
// move that arrives after its player's flag fell is refused with ErrGameOver
// and the returned events end the game by time.
package game
