package handlers

import (
	"net/http"

	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// streamViews builds the views of one game stream. A stream renders the
// panel after every move and the clocks every few seconds, for as long as
// the game lasts: it reads the players' names and frames once (again only if the
// seats change, when a private game's guest sits down) and the chat log
// only when a chat event says it changed, instead of querying the database
// for every render.
type streamViews struct {
	h       *Handler
	r       *http.Request
	feed    GameFeed
	seats   [2]game.Seat
	players players
	chat    []play.ChatMessage
	chatNew bool // the chat log must be read again
}

func newStreamViews(h *Handler, r *http.Request, feed GameFeed) *streamViews {
	return &streamViews{h: h, r: r, feed: feed, chatNew: true}
}

// chatChanged marks the chat log for reading again before the next panel.
func (v *streamViews) chatChanged() { v.chatNew = true }

// input returns the view input of snap with the players' names and
// frames.
func (v *streamViews) input(snap play.Snapshot) views.GameViewInput {
	if seats := [2]game.Seat{snap.White, snap.Black}; v.players.names == nil || seats != v.seats {
		v.seats, v.players = seats, v.h.seatedPlayers(v.r, snap)
	}
	return v.h.viewInput(v.r, snap, v.players)
}

// panel returns the whole view of snap, with the chat for a player.
func (v *streamViews) panel(snap play.Snapshot) views.GameView {
	in := v.input(snap)
	if _, playing := snap.SideOf(in.Viewer); playing {
		if v.chatNew {
			v.chat = v.h.chatLog(v.r, snap.ID)
			v.chatNew = false
		}
		in.Chat, in.Muted = v.chat, v.feed.ChatMuted(in.Viewer)
	}
	return views.NewGameView(snap, in)
}

// clocks returns the view of snap for its clocks: no chat.
func (v *streamViews) clocks(snap play.Snapshot) views.GameView {
	return views.NewGameView(snap, v.input(snap))
}
