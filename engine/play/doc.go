// Package play holds Satranç's game use cases: creating practice and
// private games, joining, moving, resigning, draw offers, leaving,
// connection tracking, rematches, snapshots for rendering, PGN export and
// restart recovery. It sits between the web handlers and the domain:
// load -> engine/game -> save (Store) -> publish (engine/live).
//
// Each live game has exactly one writer at a time: whoever holds the turn
// of its table (table.go) owns the game.Game, a request applying an
// action, the timer of the flag fall, first move or disconnection, or a
// bot's answer, one after another. A change is written to the Store before
// it is published, so an acknowledged move survives a crash (DESIGN.md
// "How a move flows").
//
//	svc := play.New(play.Config{Store: st, Bots: bots})
//	if _, err := svc.Recover(ctx); err != nil { ... } // reopen unfinished games
//	defer svc.Close()
//	id, err := svc.CreatePracticeGame(ctx, user, game.Easy, clock.MustParse("5+0"), play.RandomColor)
//	err = svc.Move(ctx, id, user, "e4", chess.English, 0)
//
// The table chat and the voice chat are tied to a game here (only its
// players take part; messages and signals go out on its events); their
// own rules and limits are in engine/chat and engine/voice.
//
// The package declares the Store it needs; store.Store implements it.
package play
