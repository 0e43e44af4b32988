package tourney

import "time"

// Result is an ended period whose prizes were paid: its key and bounds as
// paid, when, and the players who won a prize.
type Result struct {
	Kind       Kind
	Key        string
	Start, End time.Time
	PaidAt     time.Time
	Winners    []Winner
}

// Won is one prize a player won: in which period, at which place.
type Won struct {
	Kind  Kind
	Key   string
	Place int
	Prize Prize
}

// Winner is a player who won a prize: their final standing (Rank is the
// place) and the prize.
type Winner struct {
	Standing
	Prize Prize
}
