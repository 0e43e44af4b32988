// Package match plays games between engines, in-process bots or UCI
// programs such as Stockfish, with clocks and full adjudication (checkmate,
// stalemate, threefold repetition, the fifty-move rule, insufficient
// material, time, illegal moves), and sums up a match as a score and an Elo
// difference with its 95% interval. It is the calibration tool behind
// docs/bots.md; the product never uses it.
//
//	a := match.NewBot(bot.Hard)
//	b, err := match.StartUCI(ctx, "stockfish", nil, map[string]string{"UCI_LimitStrength": "true", "UCI_Elo": "1700"})
//	stats, err := match.Run(ctx, a, b, match.Options{Games: 200, Control: match.Control{Base: 10 * time.Second, Increment: 100 * time.Millisecond}})
package match
