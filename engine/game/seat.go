package game

import (
	"fmt"
	"strconv"
)

// Level is a computer player's level; NoBot is a human seat.
type Level uint8

// The computer levels of SPEC section 6.
const (
	NoBot Level = iota
	Easy
	Medium
	Hard
)

var levelNames = [...]string{"", "easy", "medium", "hard"}

// String returns "easy", "medium" or "hard", and "" for NoBot.
func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return "Level(" + strconv.Itoa(int(l)) + ")"
}

// ParseLevel reads a level as String writes it; "" is NoBot.
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if n == s {
			return Level(i), nil
		}
	}
	return NoBot, fmt.Errorf("%w: bot level %q", ErrInvalid, s)
}

// Seat is who sits on one side of the board: a user (User > 0), a computer
// player (Bot != NoBot), or nobody yet (the zero Seat).
type Seat struct {
	User int64
	Bot  Level
}

// Human returns the seat of the user with id user.
func Human(user int64) Seat { return Seat{User: user} }

// Bot returns the seat of a computer player of level l.
func Bot(l Level) Seat { return Seat{Bot: l} }

// IsBot reports whether a computer player sits here.
func (s Seat) IsBot() bool { return s.Bot != NoBot }

// IsHuman reports whether a user sits here.
func (s Seat) IsHuman() bool { return s.User > 0 }

// IsEmpty reports whether nobody sits here yet.
func (s Seat) IsEmpty() bool { return !s.IsBot() && !s.IsHuman() }

// String returns "user 12", "bot easy" or "empty".
func (s Seat) String() string {
	switch {
	case s.IsHuman():
		return "user " + strconv.FormatInt(s.User, 10)
	case s.IsBot():
		return "bot " + s.Bot.String()
	}
	return "empty"
}
