// Package chat has the rules of the table chat (SPEC section 9): a chat
// between the two players of a game only, kept with the game for
// moderation. It checks and cleans a message, limits floods and keeps
// each player's mute of the opponent.
//
// Who may post, and in which game, is for engine/play, which knows the
// players of a game; this package knows none of that. It does no I/O and
// takes the time as a parameter.
package chat

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"satranc/engine/invisible"
	"satranc/engine/limit"
)

const (
	// MaxRunes is the longest message, in characters (runes), after the
	// surrounding spaces are trimmed.
	MaxRunes = 140
	// Burst messages at most per player and game in any Window.
	Burst = 5
	// Window is the period in which Burst messages are allowed.
	Window = 10 * time.Second
)

// Sentinel errors of the chat.
var (
	// ErrEmpty: nothing but spaces.
	ErrEmpty = errors.New("chat: empty message")
	// ErrTooLong: more than MaxRunes characters.
	ErrTooLong = errors.New("chat: message too long")
	// ErrInvalid: control characters or invalid UTF-8.
	ErrInvalid = errors.New("chat: invalid characters")
	// ErrFlood: more than Burst messages in Window.
	ErrFlood = errors.New("chat: too many messages")
)

// Message is one message of a game's chat, as stored.
type Message struct {
	ID     int64 // set by the store
	GameID int64
	User   int64
	Body   string
	At     time.Time
}

// Clean strips text of invisible characters (zero-width and
// text-direction characters, see package invisible), trims it and checks
// it as a chat message: it returns the body to store, or an error
// wrapping ErrEmpty, ErrTooLong or ErrInvalid.
func Clean(text string) (string, error) {
	body := strings.TrimSpace(invisible.Strip(text))
	switch {
	case !utf8.ValidString(body):
		return "", ErrInvalid
	case body == "":
		return "", ErrEmpty
	case utf8.RuneCountInString(body) > MaxRunes:
		return "", fmt.Errorf("%w: %d characters", ErrTooLong, utf8.RuneCountInString(body))
	case strings.ContainsFunc(body, unicode.IsControl):
		return "", ErrInvalid
	}
	return body, nil
}

// seat is one player at one game: the flood limit and the mutes are per
// player and game.
type seat struct{ game, user int64 }

// Guard is the chat's memory across games: the flood limit of each
// player and the mutes. Mutes are kept in memory only: a restart forgets
// them. Make one with NewGuard; a Guard is safe for concurrent use.
type Guard struct {
	flood *limit.Window[seat]

	mu    sync.Mutex
	mutes map[seat]bool
}

// NewGuard returns a Guard that allows Burst messages per player and game
// in any Window, and where nobody is muted.
func NewGuard() *Guard {
	return &Guard{flood: &limit.Window[seat]{Burst: Burst, Period: Window}, mutes: make(map[seat]bool)}
}

// Allow counts a message from user in game at now, or returns ErrFlood if
// user already sent Burst messages there in the last Window.
func (g *Guard) Allow(game, user int64, now time.Time) error {
	if !g.flood.Allow(seat{game, user}, now) {
		return ErrFlood
	}
	return nil
}

// ToggleMute mutes, or unmutes, the opponent's chat for user in game and
// returns whether it is now muted.
func (g *Guard) ToggleMute(game, user int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	k := seat{game, user}
	if g.mutes[k] {
		delete(g.mutes, k)
		return false
	}
	g.mutes[k] = true
	return true
}

// Muted reports whether user muted the opponent's chat in game.
func (g *Guard) Muted(game, user int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.mutes[seat{game, user}]
}
