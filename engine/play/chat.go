package play

import (
	"context"
	"fmt"

	"satranc/engine/chat"
	"satranc/engine/chess"
	"satranc/engine/game"
)

// The table chat's rules (what a message may hold, the flood limit, the
// mutes) are in engine/chat; this file ties the chat to a game: only its
// players post, the messages are stored with the game, and each one is
// announced on the game's events.

// ChatMessage is chat.Message, under the name the store and the views
// use.
type ChatMessage = chat.Message

// ChatPosted: From posted a chat message. Only the players' pages show
// chat; the message itself is read from ChatLog.
type ChatPosted struct {
	game.Stamp
	From chess.Color
}

// Chat posts text from user to the chat of game id, live or over: it
// checks the text (see chat.Clean), that user plays in the game
// (ErrNotPlayer) and the flood limit (chat.ErrFlood), stores the message
// and then publishes ChatPosted.
func (s *Service) Chat(ctx context.Context, id, user int64, text string) error {
	body, err := chat.Clean(text)
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
	if err := s.chat.Allow(id, user, now); err != nil {
		return fmt.Errorf("play: chat in game %d, user %d: %w", id, user, err)
	}
	if err := s.store.AddChatMessage(ctx, chat.Message{GameID: id, User: user, Body: body, At: now}); err != nil {
		return fmt.Errorf("play: chat in game %d: %w", id, err)
	}
	s.publish(id, []game.Event{ChatPosted{Stamp: game.Stamp{Ply: snap.Ply, Time: now}, From: side}}, func() Snapshot { return snap })
	return nil
}

// ChatLog returns the chat of game id, oldest first. It is for the
// players and for moderation: callers must not show it to spectators.
func (s *Service) ChatLog(ctx context.Context, id int64) ([]chat.Message, error) {
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
	return s.chat.ToggleMute(id, user), nil
}

// ChatMuted reports whether user muted the opponent's chat in game id.
func (s *Service) ChatMuted(id, user int64) bool {
	return s.chat.Muted(id, user)
}
