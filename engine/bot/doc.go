// Package bot is Satranç's computer opponent: an alpha-beta search with its
// own evaluation, levels cut from it (Easy, Medium and Hard, rated 800,
// 1300 and 1700, and Max), time management, and a pool that bounds how many
// searches run at once.
//
// A game asks a Player for each move:
//
//	b := bot.New(bot.Medium, seed)          // one Bot per game
//	pool := bot.NewPool(0)                  // one per server: NumCPU searches at once
//	var p bot.Player = bot.Paced(pool.Player(b), bot.BlitzPace, seed) // bot.PracticePace(level) in practice
//	m, err := p.Move(ctx, g.Position(), bot.Keys(g), bot.Clock{Remaining: left, Increment: inc})
//
// Move always returns a legal move when there is one; cancel ctx when the
// game ends or the move is no longer wanted. It plays as a person does:
// from an opening book of named lines (book.go), always a mate it sees by
// the shortest way, and it gives up a hopeless game or offers a draw in a
// drawn one when asked (Resigns, OffersDraw, AnswerDraw). Budget gives the
// thinking time for a clock, and Pace the human-like delay.
//
// Engine.Search is the search itself, for analysis and the UCI command. The
// package never prints and reads no clock but the one it is given limits by.
package bot
