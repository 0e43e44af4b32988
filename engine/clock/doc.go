// Package clock is a chess clock with increment (SPEC section 4) and the time
// controls Satranç offers. It is pure: the current time is always a
// parameter, so the same clock runs in a server, in a test and after a
// restart.
//
//	c := clock.New(clock.MustParse("3+2"))
//	c.Start(chess.White, now)
//	c.Press(now.Add(5 * time.Second))      // White moved: 2:57 left
//	left := c.Remaining(chess.Black, later) // Black's clock is running
//	if side, ok := c.Flagged(later); ok { ... }
//
// A Clock with an untimed control never runs out. Snapshot and Restore carry
// a clock through the database. PressLag gives a move's network time back to
// the mover within the bounds of LagCredit (lag.go), from a round-trip time
// the server measured (LagEstimator).
package clock
