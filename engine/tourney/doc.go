// Package tourney is the rules of the two tournaments that run all the
// time, the Daily Chess Cup and the Weekly Chess League (SPEC section 7):
// their periods in the server's time zone, the points a game scores, the
// ranking, and who gets which prize when a period ends. It is pure: the
// current time and the time zone are always parameters.
//
//	p := tourney.PeriodOf(tourney.Daily, now, loc) // the Cup running at now
//	ranked := tourney.Rank(standings)              // places, ties shared
//	awards := tourney.Awards(ranked, prizes.For(p.Kind))
package tourney
