package chips

import (
	"fmt"
	"time"

	"satranc/engine/elo"
	"satranc/engine/game"
	"satranc/engine/xp"
)

// Table is the kind of table a game was played at, as far as settlement
// cares (SPEC section 5). It mirrors engine/play's Kind, which chips
// cannot name because play imports chips; the store maps one onto the
// other.
type Table uint8

// The tables.
const (
	Casual      Table = iota // practice and private games: unstaked, unrated
	QuickPlay                // Quick Play: public, unstaked, rated
	LoungeTable              // a lounge: public, staked, rated, tournament points
)

// Public reports whether t is a public table (Quick Play or a lounge),
// the only tables whose games change ratings (SPEC section 7).
func (t Table) Public() bool { return t == QuickPlay || t == LoungeTable }

// SameOpponentWindow is the same-opponent rule's window (SPEC section 5:
// "within 24 hours").
const SameOpponentWindow = 24 * time.Hour

// Sitter is one side of a public game about to start: its seat and, for
// a human, what decides whether they may sit (a bot's Player is ignored:
// the house covers its stake).
type Sitter struct {
	Seat   game.Seat
	Player Player
}

// Opening is what deciding a public game's start needs, as the store reads
// it in the transaction that creates the game.
type Opening struct {
	Table        Table // QuickPlay or LoungeTable
	Lounge       Lounge
	White, Black Sitter
	// Earlier is how many lounge games the two sides began together within
	// SameOpponentWindow before this one; it counts only in a lounge, and
	// only when both sides are human.
	Earlier int
}

// Open decides a public game's start (SPEC sections 5 and 10): every
// human must pass MaySit, and a lounge game is unstaked when the two
// humans already began SameOpponentLimit lounge games together in the
// window. A staked game then holds both stakes (Hold).
//
// Both seats are checked for a restriction before either is checked for
// the lounge's rules, so that the reason given is the one that playing
// more cannot fix, whichever seat it concerns. Errors wrap ErrRestricted,
// ErrReserved or ErrInsufficientBalance and name the user.
func Open(o Opening) (unstaked bool, err error) {
	sides := []Sitter{o.White, o.Black}
	for _, s := range sides {
		if !s.Seat.IsHuman() {
			continue
		}
		// Quick Play's rules are the restriction alone.
		if r := MaySit(s.Player, QuickPlay, o.Lounge); r != Allowed {
			return false, fmt.Errorf("user %d: %w", s.Seat.User, r.Err())
		}
	}
	if o.Table != LoungeTable {
		return false, nil
	}
	for _, s := range sides {
		if !s.Seat.IsHuman() {
			continue
		}
		if r := MaySit(s.Player, LoungeTable, o.Lounge); r != Allowed {
			return false, fmt.Errorf("user %d in %s: %w", s.Seat.User, o.Lounge.Name, r.Err())
		}
	}
	return o.White.Seat.IsHuman() && o.Black.Seat.IsHuman() && Unstaked(o.Earlier), nil
}

// Side is what settling a game needs of one side: its seat and, for a
// human, the rating, the number of rated games and the VIP status before
// the game. A bot's figures are ignored: its rating is elo.BotRating.
type Side struct {
	Seat       game.Seat
	Rating     int
	RatedGames int
	VIP        bool
}

// Ended is a game that has just ended, as the store reads it in the
// transaction that settles it.
type Ended struct {
	Game         int64
	Table        Table
	White, Black Side
	Stake        int64 // per player, as held
	// Unstaked: the same-opponent rule made the game unstaked (Open).
	Unstaked bool
	Status   game.Status // game.Finished or game.Aborted
	Result   game.Result
}

// RatingChange is one human's new rating after a rated game.
type RatingChange struct {
	User          int64
	Before, After int
}

// XPAward is the experience a game earned one human.
type XPAward struct {
	User int64
	XP   int
}

// Decision is what a game's end does, for the store to write in the
// transaction that ends it, in this order.
type Decision struct {
	// Entries empty a staked game's escrow (Settle); none otherwise.
	Entries []Entry
	// Rated says the game changes ratings; Ratings are the humans'
	// changes, White's first.
	Rated   bool
	Ratings []RatingChange
	// XP is each human's experience, White's first; none for an aborted
	// game.
	XP []XPAward
	// Points says the game scores tournament points (SPEC section 7). The
	// standings are read from the games themselves, so nothing is written
	// for it; it is here so that the rule is stated once.
	Points bool
}

// Rated reports whether a game at t that ended with status changes
// ratings (SPEC section 7): a public game played to the end, not made
// unstaked by the same-opponent rule.
func Rated(t Table, unstaked bool, status game.Status) bool {
	return t.Public() && !unstaked && status == game.Finished
}

// XP returns the experience a game that ended with status earns a human
// who won it or not: xp.Award for every finished game of every kind,
// nothing for an aborted one (SPEC sections 3 and 7).
func XP(status game.Status, won bool) int {
	if status != game.Finished {
		return 0
	}
	return xp.Award(won)
}

// Decide decides what game e's end does (SPEC sections 3, 5 and 7):
//   - chips, for a staked lounge game not made unstaked: the escrow goes
//     as Settle says, the winner's VIP status choosing the fee;
//   - Elo, for a public game played to the end and not unstaked: each
//     human's rating against the other side's rating before the game (a
//     bot's fixed rating), K by the human's rated games (elo.New);
//   - experience, for every finished game of every kind (xp.Award), none
//     for an aborted one;
//   - tournament points, for a lounge game that moved chips and was
//     played to the end.
//
// A game neither finished nor aborted is ErrInvalid.
func Decide(e Ended) (Decision, error) {
	if e.Status != game.Finished && e.Status != game.Aborted {
		return Decision{}, fmt.Errorf("%w: settle game %d that is %v", ErrInvalid, e.Game, e.Status)
	}
	var d Decision
	staked := e.Table == LoungeTable && e.Stake > 0 && !e.Unstaked
	finished := e.Status == game.Finished
	if staked {
		st := Settlement{Game: e.Game, White: e.White.Seat, Black: e.Black.Seat, Stake: e.Stake,
			Result: e.Result, Aborted: !finished}
		switch e.Result {
		case game.WhiteWins:
			st.WinnerVIP = e.White.VIP
		case game.BlackWins:
			st.WinnerVIP = e.Black.VIP
		}
		es, err := Settle(st)
		if err != nil {
			return Decision{}, err
		}
		d.Entries = es
	}
	d.Rated = Rated(e.Table, e.Unstaked, e.Status)
	d.Points = staked && finished
	if !finished {
		return d, nil
	}
	sides := [2]Side{e.White, e.Black}
	for i, s := range sides {
		if !s.Seat.IsHuman() {
			continue // a bot's rating never changes, and it earns nothing
		}
		own, opp := s, sides[1-i]
		won := (i == 0 && e.Result == game.WhiteWins) || (i == 1 && e.Result == game.BlackWins)
		if d.Rated {
			after := elo.New(own.Rating, rating(opp), own.RatedGames, score(e.Result, i == 0))
			d.Ratings = append(d.Ratings, RatingChange{User: s.Seat.User, Before: own.Rating, After: after})
		}
		d.XP = append(d.XP, XPAward{User: s.Seat.User, XP: XP(e.Status, won)})
	}
	return d, nil
}

// rating returns a side's rating before the game: a bot's is fixed.
func rating(s Side) int {
	if s.Seat.IsBot() {
		return elo.BotRating(s.Seat.Bot)
	}
	return s.Rating
}

// score returns the score of White (white) or Black in result r.
func score(r game.Result, white bool) elo.Score {
	switch {
	case r == game.Draw:
		return elo.Draw
	case (r == game.WhiteWins) == white:
		return elo.Win
	}
	return elo.Loss
}
