package store

import (
	"context"
	"fmt"

	"satranc/engine/play"
)

// chatRow is one row of chat_messages.
type chatRow struct {
	ID        int64  `db:"id"`
	GameID    int64  `db:"game_id"`
	UserID    int64  `db:"user_id"`
	Body      string `db:"body"`
	CreatedAt string `db:"created_at"`
}

// AddChatMessage stores a chat message of a game. A missing game is
// ErrNotFound (and play.ErrNotFound).
func (s *Store) AddChatMessage(ctx context.Context, m play.ChatMessage) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO chat_messages (game_id, user_id, body, created_at) VALUES (?, ?, ?, ?)`,
		m.GameID, m.User, m.Body, formatTime(m.At))
	if broken(err) == ForeignKeyConstraint {
		return fmt.Errorf("store: chat in game %d: %w", m.GameID, errGameNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: chat in game %d: %w", m.GameID, err)
	}
	return nil
}

// ChatMessages returns the chat messages of a game, oldest first; none
// for a game without chat, or without a row.
func (s *Store) ChatMessages(ctx context.Context, gameID int64) ([]play.ChatMessage, error) {
	var rows []chatRow
	err := s.rdb.SelectContext(ctx, &rows,
		`SELECT id, game_id, user_id, body, created_at FROM chat_messages WHERE game_id = ? ORDER BY id`, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: chat of game %d: %w", gameID, err)
	}
	out := make([]play.ChatMessage, len(rows))
	for i, r := range rows {
		at, err := parseTime(r.CreatedAt)
		if err != nil {
			return nil, fmt.Errorf("store: chat of game %d: %w", gameID, err)
		}
		out[i] = play.ChatMessage{ID: r.ID, GameID: r.GameID, User: r.UserID, Body: r.Body, At: at}
	}
	return out, nil
}
