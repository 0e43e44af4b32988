package views

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/opening"
)

// EventMove carries a move as the changes it makes to a page that shows
// the panel of the ply before (PanelDelta), to a game page that asked for
// them (its stream's URL ends in DeltaQuery); every other change, and
// every change to another page, is a whole panel (EventGame).
const EventMove = "move"

// DeltaQuery is the query the game page's stream URL carries to ask for
// moves as deltas, in the form DeltaVersion names. A page served before
// deltas existed, or before their form last changed (open across a
// server update), does not ask for this one, and gets whole panels,
// which its script knows.
const DeltaQuery = "delta=" + DeltaVersion

// DeltaVersion is the form of the deltas the game page's script reads:
// 2 carries the squares, the move, the status line and the materials as
// attributes that board.js draws (1 had them as out-of-band swaps); 3
// also carries a game's first two moves, with the first-move countdown
// swapped by its id, which a page of form 2 lacks; 4 also carries the
// game's end, which board.js of form 3 does not apply to the board; 5
// carries the game's end as attributes that board.js draws into the
// page's copies of the result panel and the move list's end (4 had them
// as out-of-band swaps).
const DeltaVersion = "5"

// RematchQuery is what the stream URL of a player's page of a finished
// game says of the rematch the page shows ("&rematch=" and its id, 0 for
// none): a rematch the page did not show when its stream began sends the
// page there (handlers' gameStream.sendRematch), however late the stream
// connects. "" for other pages.
func (v GameView) RematchQuery() string {
	if !v.Rematchable {
		return ""
	}
	return "&rematch=" + strconv.FormatInt(v.RematchID, 10)
}

// PanelMark is what a viewer's panel showed, as much as the next move's
// delta needs: the pieces on the squares, the materials, the opening, the
// ratings, and a key of everything a move's delta does not redraw. A game
// stream keeps the mark of its latest panel instead of the panel: about
// 200 bytes, with hashes where the panel has text, since an idle
// spectator's stream must stay small (docs/performance.md, "Idle
// spectators").
type PanelMark struct {
	Ply      int
	Pieces   [64]chess.Piece
	Material [2]uint64 // top, bottom (materialKey)
	Opening  opening.Opening
	// ratings are the players' ratings, top and bottom: the game's end
	// changes them in a rated game (the settlement's).
	ratings [2]int
	fixed   fixedParts
	actions actionParts
	moves   int // rows of the move list
	// firstMove says the first-move countdown shows: a move's delta
	// redraws it or takes it away (firstMoveSwap).
	firstMove bool
}

// fixedParts are the parts of a panel a move's delta leaves as they were:
// when one of them changes, the viewer gets the whole panel. The game's
// end changes the status, closes the voice chat and shows the result
// (atEnd).
type fixedParts struct {
	status                 game.Status
	orientation            chess.Color
	player                 bool
	players                uint64 // the players' names, frames and whether they are rated (playersKey)
	opponentGone           bool
	invite                 bool
	chat                   int
	muted, voice, chatOpen bool
	result                 bool
}

// atEnd returns f without the parts the game's end changes, for
// comparing a live panel's with the ended game's.
func (f fixedParts) atEnd() fixedParts {
	f.status, f.voice, f.result = game.Active, false, false
	return f
}

// actionParts are what a player's buttons show (gameActions): a move may
// change them (the abort rule ends, a draw offer lapses), and the delta
// then carries the parts that changed (actionSwaps).
type actionParts struct {
	drawOffered, drawOfferByMe, canOfferDraw, abortable, canLeave bool
}

// draw returns which of its forms the draw part of the buttons shows
// (drawActions), drawNone for none.
func (a actionParts) draw() drawForm {
	switch {
	case a.drawOffered && !a.drawOfferByMe:
		return drawOfferedToMe
	case a.drawOfferByMe:
		return drawPending
	case a.canOfferDraw:
		return drawOfferable
	}
	return drawNone
}

// drawForm is what the draw part of a player's buttons shows.
type drawForm int

const (
	drawNone        drawForm = iota
	drawOfferedToMe          // accept or decline the opponent's offer
	drawPending              // the player's own offer stands
	drawOfferable            // the button that offers one
)

// Mark returns the mark of v's panel.
func (v GameView) Mark() PanelMark {
	m := PanelMark{
		Ply:      v.Ply,
		Material: [2]uint64{materialKey(v.Top.Material), materialKey(v.Bottom.Material)},
		Opening:  v.Opening,
		ratings:  [2]int{v.Top.Rating, v.Bottom.Rating},
		moves:    v.Moves.Len(),
		fixed: fixedParts{
			status: v.Status, orientation: v.Board.Orientation, player: v.Player,
			players:      playersKey(v.Top, v.Bottom),
			opponentGone: v.OpponentGone > 0,
			invite:       v.InviteURL != "", chat: len(v.Chat), muted: v.Muted,
			voice: v.Voice.Open, chatOpen: v.ChatOpen, result: v.Result.Show,
		},
		actions:   actionsOf(v),
		firstMove: v.FirstMove.Pending,
	}
	for _, row := range v.Board.Rows {
		for _, sq := range row {
			m.Pieces[sq.Square] = sq.Piece
		}
	}
	return m
}

// actionsOf returns what v's buttons show.
func actionsOf(v GameView) actionParts {
	return actionParts{
		drawOffered: v.DrawOffered, drawOfferByMe: v.DrawOfferByMe, canOfferDraw: v.CanOfferDraw,
		abortable: v.Abortable, canLeave: v.CanLeave,
	}
}

// playersKey hashes what the player bars show of the players besides
// their clocks, materials and ratings (whether there is a rating, not
// its value, which the game's end changes: PanelMark.ratings).
func playersKey(top, bottom PlayerView) uint64 {
	var buf [128]byte
	b := buf[:0]
	for _, p := range []PlayerView{top, bottom} {
		b = append(b, p.Name...)
		b = append(b, 0)
		b = append(b, p.BotName...)
		b = append(b, 0)
		b = append(b, p.Frame...)
		b = append(b, 0)
		b = strconv.AppendBool(b, p.Rating > 0)
		b = append(b, 0)
		b = strconv.AppendBool(b, p.Clock.Timed)
		b = append(b, 0)
	}
	return hashOf(b)
}

// materialKey hashes a player's material: the pieces taken and the lead.
func materialKey(m Material) uint64 {
	var buf [64]byte
	b := buf[:0]
	for _, t := range m.Taken {
		b = append(b, t.Code()...)
		b = strconv.AppendInt(b, int64(t.Count), 10)
		b = append(b, ',')
	}
	b = append(b, '+')
	b = strconv.AppendInt(b, int64(m.Lead), 10)
	return hashOf(b)
}

// hashOf returns the 64-bit FNV-1a hash of b. The keys are built in a
// buffer on the stack and hashed here, rather than printed into a
// hash.Hash, which boxed every value printed: a panel's mark is taken at
// each move of every stream.
func hashOf(b []byte) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, c := range b {
		h ^= uint64(c)
		h *= prime
	}
	return h
}

// PanelDelta is one move as the changes it makes to the panel of the ply
// before: the squares whose piece changed (castling and en passant
// included), the move added to the list, the clocks, the status line,
// the materials and the opening when they changed, and the board's state
// (whose move, the legal moves, the last move and the check), which
// static/js/board.js applies. The rest of the panel stays as it was. The
// game's end is a delta too, with its last move or without one (a
// resignation, a flag fall, a draw agreed): it also stops the clocks,
// rewrites the status line, puts up the result panel and the end of the
// move list, takes the player's buttons away and the board out of play,
// and gives the players the ratings the game settled.
type PanelDelta struct {
	// View is the panel after the move.
	View GameView
	// Moved says a move was played: false for a game that ended
	// without one.
	Moved bool
	// Ends says the game ended.
	Ends bool
	// Squares are the squares whose piece changed.
	Squares []SquareView
	// Material says, for the top and the bottom player, that the pieces
	// taken changed; Rating, that the rating shown changed (at the
	// game's end).
	Material, Rating [2]bool
	// Opening says the opening's name changed (board.js adds the line
	// when the panel had none).
	Opening bool
	// NewRow says the move begins a new row of the move list (White's
	// move, or the first of a game that starts with Black).
	NewRow bool
	// Actions says a player's buttons changed; actionsBefore are what
	// they showed before the move, so that only the parts that changed
	// go out (actionSwaps).
	Actions       bool
	actionsBefore actionParts
	// FirstMove is what becomes of the first-move countdown: redrawn
	// for the other side after the first move, gone after the second.
	FirstMove firstMoveSwap
}

// firstMoveSwap is what a move's delta does with the first-move countdown
// (views/game_firstmove.templ firstMoveNotice).
type firstMoveSwap int

const (
	firstMoveKept   firstMoveSwap = iota // not shown before the move, nor after
	firstMoveRedraw                      // shown before and after: drawn anew
	firstMoveGone                        // shown before only: taken away
)

// NewPanelDelta returns the delta from the panel marked prev to next, the
// same viewer's view one move later, or of the game's end; ok is false
// when the change is more than that (the game started, two moves, an
// offer, a player, the chat, a first-move countdown that begins, a game's
// first move by Black, an end that also takes a player's notice away …):
// the viewer then gets the whole panel.
func NewPanelDelta(prev PanelMark, next GameView) (d PanelDelta, ok bool) {
	cur := next.Mark()
	if prev.fixed.status != game.Active || cur.firstMove && !prev.firstMove {
		return PanelDelta{}, false
	}
	d = PanelDelta{View: next, Moved: cur.Ply == prev.Ply+1, Ends: cur.fixed.status.Over()}
	if d.Ends {
		// Ended by the move, or at the same ply; a game ended before its
		// first move has no PGN to link to either.
		// A voided result (an administrator's, of a game over) is not
		// among what the page's copy of the result panel can show.
		if !d.Moved && cur.Ply != prev.Ply || cur.Ply == 0 || cur.fixed.atEnd() != prev.fixed.atEnd() || next.Result.Voided {
			return PanelDelta{}, false
		}
	} else if !d.Moved || cur.fixed != prev.fixed || cur.ratings != prev.ratings {
		return PanelDelta{}, false
	}
	if cur.ratings[0] > 0 != (prev.ratings[0] > 0) || cur.ratings[1] > 0 != (prev.ratings[1] > 0) {
		return PanelDelta{}, false // a rating appears or goes: the player bar's markup changes
	}
	if !d.Moved {
		if next.Moves.Len() != prev.moves || cur.Opening != prev.Opening {
			return PanelDelta{}, false
		}
	} else if !movedInList(prev, cur, next) {
		return PanelDelta{}, false
	}
	if prev.Opening != cur.Opening && cur.Opening.ECO == "" {
		return PanelDelta{}, false // a name does not go away
	}
	d.Material = [2]bool{cur.Material[0] != prev.Material[0], cur.Material[1] != prev.Material[1]}
	d.Rating = [2]bool{cur.ratings[0] != prev.ratings[0], cur.ratings[1] != prev.ratings[1]}
	d.Opening = cur.Opening != prev.Opening
	d.NewRow = next.Moves.Len() > prev.moves
	d.Actions = cur.actions != prev.actions
	d.actionsBefore = prev.actions
	switch {
	case prev.firstMove && cur.firstMove:
		d.FirstMove = firstMoveRedraw
	case prev.firstMove:
		d.FirstMove = firstMoveGone
	}
	board := next.Board
	for _, row := range board.Rows {
		for _, sq := range row {
			if prev.Pieces[sq.Square] != sq.Piece {
				d.Squares = append(d.Squares, sq)
			}
		}
	}
	return d, true
}

// movedInList reports whether next's move list is prev's with the move
// of next's ply added as its latest, as board.js adds it.
func movedInList(prev, cur PanelMark, next GameView) bool {
	n := next.Moves.Len()
	if n == 0 || n < prev.moves || n > prev.moves+1 {
		return false
	}
	if prev.moves == 0 && next.Moves.blackFirst {
		// A game that starts with Black's move: its first row holds
		// White's "…", which board.js does not draw.
		return false
	}
	// board.js marks the move it adds as the latest, at the panel's ply:
	// a list that counts otherwise gets the whole panel.
	return next.MovePly(n-1, next.Moves.Row(n-1).Black != "") == cur.Ply
}

// FigureRating returns the rating change the game's end gave the viewer,
// a player of a rated game, as "1200 1216" (before and after; board.js
// writes it out as RatingText does), or "".
func (d PanelDelta) FigureRating() string {
	r := d.View.Result
	if r.Settlement == nil || !r.Settlement.Rated {
		return ""
	}
	return strconv.Itoa(r.Settlement.Rating.Before) + " " + strconv.Itoa(r.Settlement.Rating.After)
}

// LastSAN returns the move in SAN.
func (d PanelDelta) LastSAN() string {
	return d.View.Moves.Last()
}

// LastRow returns the move list's last row and its index.
func (d PanelDelta) LastRow() (int, MoveRow) {
	i := d.View.Moves.Len() - 1
	return i, d.View.Moves.Row(i)
}

// LastSquares returns the squares of the last move, for the board's
// highlight ("e2 e4").
func (d PanelDelta) LastSquares() string {
	b := d.View.Board
	if b.LastFrom == chess.NoSquare {
		return ""
	}
	return b.LastFrom.String() + " " + b.LastTo.String()
}

// Dests returns the viewer's legal moves, grouped by the square they
// start from, a promotion's piece in capitals ("e2:e3e4 g1:f3h3
// e7:e8Qe8N"): half the bytes of data-legal,
// which board.js writes back from it.
func (d PanelDelta) Dests() string {
	legal := slices.Clone(d.View.Legal)
	slices.SortStableFunc(legal, func(a, b chess.Move) int { return int(a.From()) - int(b.From()) })
	var b strings.Builder
	from := chess.NoSquare
	for _, m := range legal {
		if m.From() != from {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			from = m.From()
			b.WriteString(from.String())
			b.WriteByte(':')
		}
		uci := m.String()
		b.WriteString(uci[2:4])
		b.WriteString(strings.ToUpper(uci[4:])) // a promotion's piece: no square starts with a capital
	}
	return b.String()
}

// CheckSquare returns the square of the king in check, or "".
func (d PanelDelta) CheckSquare() string {
	if d.View.Board.CheckSquare == chess.NoSquare {
		return ""
	}
	return d.View.Board.CheckSquare.String()
}

// ClockMS returns side's clock for the board's state: milliseconds left
// and whether it runs ("61234 1"), or "" in an untimed game.
func (d PanelDelta) ClockMS(side chess.Color) string {
	p := d.View.Top
	if p.Side != side {
		p = d.View.Bottom
	}
	if !p.Clock.Timed {
		return ""
	}
	running := "0"
	if p.Clock.Running {
		running = "1"
	}
	return p.Clock.RemainingMS() + " " + running
}

// The sides, for the templates.
const (
	whiteSide = chess.White
	blackSide = chess.Black
)

// liveBoardID is the id of the game page's board, which a move's delta
// changes (and not the board of a past position being browsed).
const liveBoardID = "game-board"

// BoardText returns the squares whose piece changed, for board.js: each
// square's name, a colon and its piece now, nothing for none ("e1: f1:wR
// g1:wK h1:"). board.js puts a copy of the piece's image from the page's
// deltaTemplates there: some 10 bytes a square where the image's markup
// was some 185.
func (d PanelDelta) BoardText() string {
	var b strings.Builder
	for _, sq := range d.Squares {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sq.Name)
		b.WriteByte(':')
		b.WriteString(sq.PieceCode())
	}
	return b.String()
}

// RowNumber returns the number of the move list's row the move begins
// (NewRow), which board.js gives the row it adds.
func (d PanelDelta) RowNumber() string {
	_, row := d.LastRow()
	return strconv.Itoa(row.Number)
}

// MaterialText returns side's material for board.js when the move
// changed it (ok): the pieces taken, each as its image code and count,
// pawns first, then the lead ("bP2 bN1 +3"); "" for nothing taken and no
// lead. board.js draws the same markup as material from it.
func (d PanelDelta) MaterialText(side chess.Color) (text string, ok bool) {
	for i, p := range [2]PlayerView{d.View.Top, d.View.Bottom} {
		if p.Side == side && d.Material[i] {
			return materialText(p.Material), true
		}
	}
	return "", false
}

// RatingText returns side's rating for board.js when the game's end
// changed it (ok).
func (d PanelDelta) RatingText(side chess.Color) (text string, ok bool) {
	for i, p := range [2]PlayerView{d.View.Top, d.View.Bottom} {
		if p.Side == side && d.Rating[i] {
			return strconv.Itoa(p.Rating), true
		}
	}
	return "", false
}

func materialText(m Material) string {
	var b strings.Builder
	for _, t := range m.Taken {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Code())
		b.WriteString(strconv.Itoa(t.Count))
	}
	if m.Lead > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.LeadText())
	}
	return b.String()
}

// actionSwap is a part of a player's buttons that a move changed, as the
// delta swaps it (actionSwapOf): the part drawn anew in place of the old
// one, put where there was none, or taken away.
type actionSwap struct {
	part actionPart
	// oob is the hx-swap-oob: on the part itself when it replaces the
	// old one; on a wrapper around it when it is put where there was
	// none; on an empty element when it goes.
	oob          string
	insert, gone bool
}

// actionPart names a part of a player's buttons (gameActionsContent).
type actionPart int

const (
	drawPart   actionPart = iota // drawActions
	resignPart                   // Resign, or Abort while the abort rule applies
	leavePart                    // Leave, where leaving means more than resigning
)

// The parts' selectors, within the buttons: an out-of-band swap changes
// every element its selector finds.
const (
	actionsTarget = "[data-testid=actions]"
	drawTarget    = actionsTarget + " > [data-draw]"
	resignTarget  = actionsTarget + " > [data-testid=resign]"
	leaveTarget   = actionsTarget + " > [data-testid=leave]"
)

// actionSwaps returns the parts of a player's buttons that the move
// changed and a swap must redraw: when a draw offer lapses, the draw part
// alone, some 200 bytes where all the buttons were some 1,000. When the
// abort rule ends, only the resign confirmation's texts change (Abort
// becomes Resign): the delta carries them (resignChanged), not the part.
// The order is the buttons' own: draw, leave.
func (d PanelDelta) actionSwaps() []actionSwap {
	if !d.Actions || !d.View.Player || !d.View.Live() {
		return nil
	}
	before, after := d.actionsBefore, actionsOf(d.View)
	var out []actionSwap
	if b, a := before.draw(), after.draw(); b != a {
		out = append(out, partSwap(drawPart, b != drawNone, a != drawNone, drawTarget, "afterbegin:"+actionsTarget))
	}
	if before.canLeave != after.canLeave {
		out = append(out, partSwap(leavePart, before.canLeave, after.canLeave, leaveTarget, "beforeend:"+actionsTarget))
	}
	return out
}

// resignChanged says the move changed the resign confirmation's texts:
// the abort rule ended, or began again (a takeback would). board.js puts
// the texts the delta carries (resignText) in place, some 60 bytes where
// the confirmation's markup was some 330.
func (d PanelDelta) resignChanged() bool {
	return d.Actions && d.View.Player && d.View.Live() && d.actionsBefore.abortable != actionsOf(d.View).abortable
}

// resignText is a text of v's resign confirmation (resignAction): "button",
// "confirm" or "yes", of aborting while the abort rule applies, of
// resigning after.
func resignText(ctx context.Context, v *GameView, part string) string {
	if v.Abortable {
		return T(ctx, "game.abort."+part)
	}
	return T(ctx, "game.resign."+part)
}

// openingText is the opening as a move's delta carries it: the ECO code,
// a space and the name in the viewer's language (board.js draws the line
// openingLine draws).
func openingText(ctx context.Context, o opening.Opening) string {
	return o.ECO + " " + OpeningName(ctx, o)
}

// partSwap returns the swap of a part that was shown (was) or not, and
// is shown now (is) or not: target finds the part, at is where it goes
// in when there was none.
func partSwap(part actionPart, was, is bool, target, at string) actionSwap {
	switch {
	case was && is:
		return actionSwap{part: part, oob: "outerHTML:" + target}
	case is:
		return actionSwap{part: part, oob: at, insert: true}
	default:
		return actionSwap{part: part, oob: "delete:" + target, gone: true}
	}
}

// deltaTemplatesID is the id of the game page's deltaTemplates.
const deltaTemplatesID = "game-pieces"

// allPieces are the twelve pieces, for deltaTemplates.
var allPieces = func() []chess.Piece {
	var out []chess.Piece
	for _, c := range []chess.Color{chess.White, chess.Black} {
		for _, t := range []chess.PieceType{chess.Pawn, chess.Knight, chess.Bishop, chess.Rook, chess.Queen, chess.King} {
			out = append(out, chess.NewPiece(c, t))
		}
	}
	return out
}()
