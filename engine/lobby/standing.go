package lobby

// Standing is a player's place on the leaderboard (SPEC section 7:
// players ranked by Elo). Players of equal rating share a rank, and the
// next rank counts them all (1, 2, 2, 4).
type Standing struct {
	Rank       int
	User       int64
	Name       string
	Rating     int
	RatedGames int
}
