package handlers

import (
	"context"

	"satranc/engine/chat"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// streamViews builds the views of one game stream. A stream renders the
// panel after every move and the clocks every few seconds, for as long as
// the game lasts: it takes the players' names and frames once, from those
// the game's streams share (Handler.players; again only if the seats
// change, when a private game's guest sits down), and reads the chat log
// only when a chat event says it changed, instead of querying the database
// for every render. It keeps of the request only what the views need (the
// user and the language in ctx, the site's address), so that a stream may
// outlive its request (sse_detach.go).
type streamViews struct {
	h    *Handler
	ctx  context.Context
	base string // Handler.baseURL of the request
	feed GameFeed
	// game is the game streamed, whose players the stream holds (release).
	game int64
	// players were taken for seats and over (hasPlayers: they were).
	hasPlayers bool
	seats      [2]game.Seat
	players    players
	chat       []chat.Message
	chatNew    bool // the chat log must be read again
	// over says the players were read after the game ended.
	over bool
	// settled is the viewer's settlement of the game once it is over,
	// read once it is there.
	settled *play.Settlement
}

// newStreamViews returns the views of a stream of game id, which holds
// the game's players and its moves in SAN until release.
func newStreamViews(h *Handler, ctx context.Context, base string, feed GameFeed, id int64) *streamViews {
	h.players.hold(id)
	h.sans.hold(id)
	return &streamViews{h: h, ctx: ctx, base: base, feed: feed, game: id, chatNew: true}
}

// release gives back the game's players and moves the stream held.
func (v *streamViews) release() {
	v.h.players.release(v.game)
	v.h.sans.release(v.game)
}

// chatChanged marks the chat log for reading again before the next panel.
func (v *streamViews) chatChanged() { v.chatNew = true }

// input returns the view input of snap with the players' names and
// frames and the moves in SAN the game's streams share.
func (v *streamViews) input(snap play.Snapshot) views.GameViewInput {
	in := v.playersInput(snap)
	in.SAN = v.h.sans.of(&snap, in.Letters)
	return in
}

// playersInput returns the view input of snap with the players' names
// and frames: read when the stream opens, and again only when the seats
// change.
func (v *streamViews) playersInput(snap play.Snapshot) views.GameViewInput {
	// Read again when the game ends too: the player bars then show the
	// ratings the game's settlement gave, as the result panel does.
	seats, over := [2]game.Seat{snap.White, snap.Black}, snap.Status.Over()
	if !v.hasPlayers {
		v.players = v.h.players.fresh(v.ctx, v.h, snap)
	} else if seats != v.seats || over != v.over {
		v.players = v.h.players.of(v.ctx, v.h, snap)
	}
	v.seats, v.over, v.hasPlayers = seats, over, true
	return v.h.viewInput(v.ctx, v.base, snap, v.players)
}

// panel returns the whole view of snap, with the chat for a player.
func (v *streamViews) panel(snap play.Snapshot) views.GameView {
	in := v.input(snap)
	if _, playing := snap.SideOf(in.Viewer); playing {
		if v.chatNew {
			v.chat = v.h.chatLog(v.ctx, snap.ID)
			v.chatNew = false
		}
		in.Chat, in.Muted = v.chat, v.feed.ChatMuted(in.Viewer)
		if snap.Status.Over() && (v.settled == nil || !v.settled.Settled) {
			v.settled = v.h.settlementFor(v.ctx, snap, in.Viewer)
		}
		in.Settlement = v.settled
	}
	return views.NewGameView(snap, in)
}

// clocks returns the players of snap with their clocks, top and bottom.
func (v *streamViews) clocks(snap play.Snapshot) (top, bottom views.PlayerView) {
	return views.NewPlayerViews(snap, v.playersInput(snap))
}
