package play

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/invisible"
)

// Table chat (SPEC section 9): between the two players of a game only,
// kept with the game for moderation.
const (
	// ChatMaxRunes is the longest message, in characters (runes), after
	// the surrounding spaces are trimmed.
	ChatMaxRunes = 140
	// ChatBurst messages at most per player in any ChatWindow.
	ChatBurst  = 5
	ChatWindow = 10 * time.Second
)

// Sentinel errors of the chat.
var (
	// ErrChatEmpty: nothing but spaces.
	ErrChatEmpty = errors.New("play: chat: empty message")
	// ErrChatTooLong: more than ChatMaxRunes characters.
	ErrChatTooLong = errors.New("play: chat: message too long")
	// ErrChatInvalid: control characters or invalid UTF-8.
	ErrChatInvalid = errors.New("play: chat: invalid characters")
	// ErrChatFlood: more than ChatBurst messages in ChatWindow.
	ErrChatFlood = errors.New("play: chat: too many messages")
)

// ChatMessage is one message of a game's chat, as stored.
type ChatMessage struct {
	ID     int64 // set by the store
	GameID int64
	User   int64
	Body   string
	At     time.Time
}

// ChatPosted: From posted a chat message. Only the players' pages show
// chat; the message itself is read from ChatLog.
type ChatPosted struct {
	game.Stamp
	From chess.Color
}

// CleanChat strips text of invisible characters (zero-width and
// text-direction characters, see package invisible), trims it and checks
// it as a chat message: it returns the body to store, or an error
// wrapping ErrChatEmpty, ErrChatTooLong or ErrChatInvalid.
func CleanChat(text string) (string, error) {
	body := strings.TrimSpace(invisible.Strip(text))
	switch {
	case !utf8.ValidString(body):
		return "", ErrChatInvalid
	case body == "":
		return "", ErrChatEmpty
	case utf8.RuneCountInString(body) > ChatMaxRunes:
		return "", fmt.Errorf("%w: %d characters", ErrChatTooLong, utf8.RuneCountInString(body))
	case strings.ContainsFunc(body, unicode.IsControl):
		return "", ErrChatInvalid
	}
	return body, nil
}

// Chat posts text from user to the chat of game id, live or over: it
// checks that user plays in the game (ErrNotPlayer), the text (see
// CleanChat) and the flood limit (ErrChatFlood), stores the message and
// then publishes ChatPosted.
func (s *Service) Chat(ctx context.Context, id, user int64, text string) error {
	body, err := CleanChat(text)
	if err != nil {
		return fmt.Errorf("play: game %d: %w", id, err)
	}
	snap, err := s.Game(ctx, id)
	if err != nil {
		return err
	}
	side, ok := snap.SideOf(user)
	if !ok {
		return fmt.Errorf("play: chat in game %d, user %d: %w", id, user, ErrNotPlayer)
	}
	now := s.now()
	if !s.chat.limit.allow(playerKey{id, user}, now) {
		return fmt.Errorf("play: chat in game %d, user %d: %w", id, user, ErrChatFlood)
	}
	if err := s.store.AddChatMessage(ctx, ChatMessage{GameID: id, User: user, Body: body, At: now}); err != nil {
		return fmt.Errorf("play: chat in game %d: %w", id, err)
	}
	s.publish(id, []game.Event{ChatPosted{Stamp: game.Stamp{Ply: snap.Ply, Time: now}, From: side}}, func() Snapshot { return snap })
	return nil
}

// ChatLog returns the chat of game id, oldest first. It is for the
// players and for moderation: callers must not show it to spectators.
func (s *Service) ChatLog(ctx context.Context, id int64) ([]ChatMessage, error) {
	msgs, err := s.store.ChatMessages(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("play: chat of game %d: %w", id, err)
	}
	return msgs, nil
}

// ToggleChatMute mutes, or unmutes, the opponent's chat for user in game
// id and returns whether it is now muted. Mutes are kept in memory only:
// a restart forgets them.
func (s *Service) ToggleChatMute(ctx context.Context, id, user int64) (bool, error) {
	snap, err := s.Game(ctx, id)
	if err != nil {
		return false, err
	}
	if _, ok := snap.SideOf(user); !ok {
		return false, fmt.Errorf("play: mute in game %d, user %d: %w", id, user, ErrNotPlayer)
	}
	return s.chat.toggleMute(playerKey{id, user}), nil
}

// ChatMuted reports whether user muted the opponent's chat in game id.
func (s *Service) ChatMuted(id, user int64) bool {
	return s.chat.muted(playerKey{id, user})
}

// chatState is the chat's memory in a Service: the flood limiter (set by
// New) and the mutes.
type chatState struct {
	limit windowLimiter

	mu    sync.Mutex
	mutes map[playerKey]bool
}

func (c *chatState) toggleMute(k playerKey) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mutes == nil {
		c.mutes = make(map[playerKey]bool)
	}
	if c.mutes[k] {
		delete(c.mutes, k)
		return false
	}
	c.mutes[k] = true
	return true
}

func (c *chatState) muted(k playerKey) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mutes[k]
}
