package views

import (
	"fmt"
	"hash/fnv"
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
// moves as deltas. A page served before deltas existed (open across a
// server update) does not ask, and gets whole panels, which its script
// knows.
const DeltaQuery = "delta=1"

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
// delta needs: the pieces on the squares, the materials, the opening, and
// a key of everything a move's delta does not redraw. A game stream keeps
// the mark of its latest panel instead of the panel: about 200 bytes, with
// hashes where the panel has text, since an idle spectator's stream must
// stay small (docs/performance.md, "Idle spectators").
type PanelMark struct {
	Ply      int
	Pieces   [64]chess.Piece
	Material [2]uint64 // top, bottom (materialKey)
	Opening  opening.Opening
	fixed    fixedParts
	actions  actionParts
	moves    int // rows of the move list
}

// fixedParts are the parts of a panel a move's delta leaves as they were:
// when one of them changes, the viewer gets the whole panel.
type fixedParts struct {
	status                  game.Status
	orientation             chess.Color
	player                  bool
	players                 uint64 // the players' names, ratings and frames (playersKey)
	opponentGone, firstMove bool
	invite                  bool
	chat                    int
	muted, voice, chatOpen  bool
	result                  bool
}

// actionParts are what a player's buttons show (gameActions): a move may
// change them (the abort rule ends, a draw offer lapses), and the delta
// then carries the buttons again.
type actionParts struct {
	drawOffered, drawOfferByMe, canOfferDraw, abortable, canLeave bool
}

// Mark returns the mark of v's panel.
func (v GameView) Mark() PanelMark {
	m := PanelMark{
		Ply:      v.Ply,
		Material: [2]uint64{materialKey(v.Top.Material), materialKey(v.Bottom.Material)},
		Opening:  v.Opening,
		moves:    len(v.Moves),
		fixed: fixedParts{
			status: v.Status, orientation: v.Board.Orientation, player: v.Player,
			players:      playersKey(v.Top, v.Bottom),
			opponentGone: v.OpponentGone > 0, firstMove: v.FirstMove.Pending,
			invite: v.InviteURL != "", chat: len(v.Chat), muted: v.Muted,
			voice: v.Voice.Open, chatOpen: v.ChatOpen, result: v.Result.Show,
		},
		actions: actionParts{
			drawOffered: v.DrawOffered, drawOfferByMe: v.DrawOfferByMe, canOfferDraw: v.CanOfferDraw,
			abortable: v.Abortable, canLeave: v.CanLeave,
		},
	}
	for _, row := range v.Board.Rows {
		for _, sq := range row {
			m.Pieces[sq.Square] = sq.Piece
		}
	}
	return m
}

// playersKey hashes what the player bars show of the players besides
// their clocks and materials.
func playersKey(top, bottom PlayerView) uint64 {
	h := fnv.New64a()
	for _, p := range []PlayerView{top, bottom} {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%t\x00", p.Name, p.BotName, p.Frame, p.Rating, p.Clock.Timed)
	}
	return h.Sum64()
}

// materialKey hashes a player's material: the pieces taken and the lead.
func materialKey(m Material) uint64 {
	h := fnv.New64a()
	for _, t := range m.Taken {
		fmt.Fprintf(h, "%s%d,", t.Code(), t.Count)
	}
	fmt.Fprintf(h, "+%d", m.Lead)
	return h.Sum64()
}

// PanelDelta is one move as the changes it makes to the panel of the ply
// before: the squares whose piece changed (castling and en passant
// included), the move added to the list, the clocks, the status line,
// the materials and the opening when they changed, and the board's state
// (whose move, the legal moves, the last move and the check), which
// static/js/board.js applies. The rest of the panel stays as it was.
type PanelDelta struct {
	// View is the panel after the move.
	View GameView
	// Squares are the squares whose piece changed.
	Squares []SquareView
	// Material says, for the top and the bottom player, that the pieces
	// taken changed.
	Material [2]bool
	// Opening says the opening's name changed; OpeningNew that the panel
	// had none before.
	Opening, OpeningNew bool
	// NewRow says the move begins a new row of the move list (White's
	// move, or the first of a game that starts with Black).
	NewRow bool
	// Actions says a player's buttons changed.
	Actions bool
}

// NewPanelDelta returns the delta from the panel marked prev to next, the
// same viewer's view one move later; ok is false when the change is more
// than a move (the game started or ended, an offer, a player, the chat,
// the first-move countdown, the first move of the list …): the viewer
// then gets the whole panel.
func NewPanelDelta(prev PanelMark, next GameView) (d PanelDelta, ok bool) {
	cur := next.Mark()
	if cur.Ply != prev.Ply+1 || cur.fixed != prev.fixed || cur.fixed.status != game.Active ||
		prev.moves == 0 || len(next.Moves) < prev.moves || len(next.Moves) > prev.moves+1 {
		return PanelDelta{}, false
	}
	if prev.Opening != cur.Opening && cur.Opening.ECO == "" {
		return PanelDelta{}, false // a name does not go away
	}
	d = PanelDelta{
		View:       next,
		Material:   [2]bool{cur.Material[0] != prev.Material[0], cur.Material[1] != prev.Material[1]},
		Opening:    cur.Opening != prev.Opening,
		OpeningNew: prev.Opening.ECO == "",
		NewRow:     len(next.Moves) > prev.moves,
		Actions:    cur.actions != prev.actions,
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

// LastSAN returns the move in SAN.
func (d PanelDelta) LastSAN() string {
	row := d.View.Moves[len(d.View.Moves)-1]
	if row.Black != "" {
		return row.Black
	}
	return row.White
}

// LastRow returns the move list's last row and its index.
func (d PanelDelta) LastRow() (int, MoveRow) {
	i := len(d.View.Moves) - 1
	return i, d.View.Moves[i]
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

// squareTarget is the selector of a square of the game board.
func squareTarget(sq SquareView) string {
	return "innerHTML:#" + liveBoardID + " [data-square=" + sq.Name + "]"
}

// liveBoardID is the id of the game page's board, which a move's delta
// changes (and not the board of a past position being browsed).
const liveBoardID = "game-board"

// materialTarget is the selector of a player's material.
func materialTarget(p PlayerView) string {
	return "outerHTML:[data-testid=material-" + p.Testid() + "]"
}

// deltaMaterials returns the players whose material changed.
func (d PanelDelta) deltaMaterials() []PlayerView {
	var out []PlayerView
	for i, p := range []PlayerView{d.View.Top, d.View.Bottom} {
		if d.Material[i] {
			out = append(out, p)
		}
	}
	return slices.Clip(out)
}
