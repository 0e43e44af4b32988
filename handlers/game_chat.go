package handlers

import (
	"context"
	"net/http"

	"github.com/a-h/templ"

	"satranc/engine/chat"
	"satranc/views"
)

// GameChat is what the game pages need of the table chat (engine/play's
// Chat and the rules of engine/chat): only the players of a game post
// and read it.
type GameChat interface {
	// Chat posts text from user to the chat of game id.
	Chat(ctx context.Context, id, user int64, text string) error
	// ChatLog returns the chat of game id, oldest first.
	ChatLog(ctx context.Context, id int64) ([]chat.Message, error)
	// ToggleChatMute mutes, or unmutes, the opponent's chat for user in
	// game id and returns whether it is now muted.
	ToggleChatMute(ctx context.Context, id, user int64) (bool, error)
	// ChatMuted reports whether user muted the opponent's chat in game id.
	ChatMuted(id, user int64) bool
}

// handleGameChat posts a chat message (field text) to the opponent. htmx
// gets nothing on success (the event stream brings the message to both
// players) and the notice alone on a refusal; a plain form goes back to
// the game, or gets the page again with the notice.
func (h *Handler) handleGameChat(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	user, _ := userFrom(r.Context())
	err = h.chat.Chat(r.Context(), id, user.ID, r.PostFormValue("text"))
	h.answerGameForm(w, r, id, err, views.ChatError, func(v views.GameView, msg *views.Message) templ.Component {
		v.ChatError = msg
		return views.GamePage(v, nil)
	})
}

// handleGameChatMute mutes or unmutes the opponent's chat for the player
// (kept in memory by engine/chat) and goes back to the game.
func (h *Handler) handleGameChatMute(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	user, _ := userFrom(r.Context())
	if _, err := h.chat.ToggleChatMute(r.Context(), id, user.ID); err != nil {
		h.fail(w, r, err)
		return
	}
	h.afterAction(w, r, id)
}

// chatFor returns what the player user sees of the chat of game id: the
// log and whether the opponent is muted. A log that cannot be read is
// logged and shown empty, not to lose the game page over it.
func (h *Handler) chatFor(r *http.Request, id, user int64) ([]chat.Message, bool) {
	return h.chatLog(r.Context(), id), h.chat.ChatMuted(id, user)
}

// chatLog returns the chat of game id, empty (and logged) if it cannot
// be read.
func (h *Handler) chatLog(ctx context.Context, id int64) []chat.Message {
	msgs, err := h.chat.ChatLog(ctx, id)
	if err != nil {
		h.log.WarnContext(ctx, "chat log", "game", id, "err", err)
	}
	return msgs
}
