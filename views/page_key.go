package views

import (
	"context"
	"strconv"
)

// ShownQuery is what the stream URL of a live game's page says of the
// panel the page was drawn with ("&shown=" and its PageKey; "" for a game
// not in play): a stream that begins while the game still shows the
// viewer exactly that panel sends no first panel, which would only draw
// the page again (some 13 KB, where the page came compressed in 5).
// static/js/board.js takes it off the URL once the stream is open, and
// closes that first stream when it fails rather than let it reconnect
// with the same URL, so that a stream the page opens again later, after
// missing what it may, gets the whole panel.
func (v GameView) ShownQuery(ctx context.Context) string {
	if !v.Live() {
		return ""
	}
	return "&shown=" + v.PageKey(ctx)
}

// PageKey sums up the panel of v as ctx draws it: what its mark holds
// (the position, the materials, the opening, the ratings, the players,
// the buttons and the other parts a move leaves), the chat's lines, the
// language and the piece set. Two views with one key draw one panel, but
// for the clocks and countdowns, which the page runs on its own.
func (v GameView) PageKey(ctx context.Context) string {
	m := v.Mark()
	b := make([]byte, 0, 256)
	b = strconv.AppendInt(b, int64(m.Ply), 10)
	b = append(b, 0)
	for _, p := range m.Pieces {
		b = append(b, byte(p))
	}
	for _, k := range []uint64{m.Material[0], m.Material[1], m.fixed.players} {
		b = strconv.AppendUint(b, k, 36)
		b = append(b, 0)
	}
	b = append(b, m.Opening.ECO...)
	b = append(b, 0)
	b = append(b, m.Opening.Name...)
	b = append(b, 0)
	for _, n := range []int{m.ratings[0], m.ratings[1], m.moves, m.fixed.chat, int(m.fixed.status), int(m.fixed.orientation)} {
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, 0)
	}
	f, a := m.fixed, m.actions
	for _, set := range []bool{
		f.player, f.opponentGone, f.invite, f.muted, f.voice, f.chatOpen, f.result, m.firstMove,
		a.drawOffered, a.drawOfferByMe, a.canOfferDraw, a.abortable, a.canLeave,
	} {
		b = strconv.AppendBool(b, set)
	}
	for _, l := range v.Chat {
		b = strconv.AppendBool(b, l.Mine)
		b = append(b, l.Name...)
		b = append(b, 0)
		b = append(b, l.Text...)
		b = append(b, 0)
	}
	b = append(b, Lang(ctx)...)
	b = append(b, 0)
	b = append(b, LookOf(ctx).Pieces...)
	return strconv.FormatUint(hashOf(b), 36)
}
