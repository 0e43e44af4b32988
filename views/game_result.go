package views

import (
	"context"
	"io"
	"strconv"
	"sync"

	"github.com/a-h/templ"

	"satranc/engine/chess"
	"satranc/engine/chips"
	"satranc/engine/game"
	"satranc/engine/play"
)

// EventRematch names the event that sends a player's page to the rematch
// once both players agreed to it: its data is a link (RematchGo) that
// static/js/result.js follows.
const EventRematch = "rematch"

// ResultView is the result panel of a game that is over: the result and
// its reason, what the game gave the viewer (a player) in rating, chips
// and experience, and the next steps.
type ResultView struct {
	// Show is set once the game is over.
	Show bool
	// Player is set for a player of the game; a spectator's panel has
	// the result, the reason and the PGN only.
	Player bool
	// Headline is the message ID of the panel's title, such as
	// "game.result_panel.won" or "game.result_panel.white_wins".
	Headline string
	// Figures: Settlement is what the database holds of the game's
	// settlement for the viewer (nil: not read, or not there yet: the
	// panel asks again, FiguresPending). XP is the experience the game
	// earned the viewer. Voided says an administrator voided the result,
	// which took back its figures.
	Settlement *play.Settlement
	XP         int
	Voided     bool
	// NewGame is the form that starts another game of the same kind and
	// time control.
	NewGame NewGameForm
}

// NewGameForm is a form that starts a game like the one that ended: its
// action and hidden fields.
type NewGameForm struct {
	Action string
	Fields []FormField
}

// FormField is one hidden field of a form.
type FormField struct{ Name, Value string }

// newResultView returns the result panel of snap for the viewer of v, with
// the viewer's settlement st (nil if unknown).
func newResultView(snap play.Snapshot, v GameView, st *play.Settlement) ResultView {
	if !snap.Status.Over() {
		return ResultView{}
	}
	r := ResultView{Show: true, Player: v.Player, Voided: v.Voided, Headline: headline(snap, v)}
	if !v.Player {
		return r
	}
	r.NewGame = newGameForm(snap, v.Side)
	if st != nil && st.Settled {
		r.Settlement = st
		r.XP = play.XPEarned(snap.Status, snap.Outcome, v.Side)
	}
	return r
}

// headline returns the panel title's message ID.
func headline(snap play.Snapshot, v GameView) string {
	o := snap.Outcome
	switch {
	case o.IsCancelled():
		return "game.result_panel.cancelled"
	case o.IsAborted():
		return "game.result_panel.aborted"
	case o.Result == game.Draw:
		return "game.result_panel.draw"
	}
	winner, ok := o.Winner()
	switch {
	case !ok:
		return "game.result_panel.over"
	case v.Player && winner == v.Side:
		return "game.result_panel.won"
	case v.Player:
		return "game.result_panel.lost"
	case winner == chess.White:
		return "game.result_panel.white_wins"
	}
	return "game.result_panel.black_wins"
}

// newGameForm returns the form that starts a game like snap for the
// player of side (newGameFormOf).
func newGameForm(snap play.Snapshot, side chess.Color) NewGameForm {
	return newGameFormOf(snap.Kind, snap.Control.String(), snap.Stake, snap.Seat(side.Other()).Bot, side)
}

// newGameFormOf returns the form that starts a game of kind at control
// for the player of side: Quick Play again with the same time control,
// the same lounge (by its stake) at the same control, a practice game
// against the same level (opponent) in the same colour, or a new
// invitation with the same control.
func newGameFormOf(kind play.Kind, control string, stake int64, opponent game.Level, side chess.Color) NewGameForm {
	controlField := FormField{"control", control}
	switch kind {
	case play.Quick:
		return NewGameForm{Action: "/lobby/join", Fields: []FormField{controlField}}
	case play.Lounge:
		f := NewGameForm{Action: "/lobby/join", Fields: []FormField{controlField}}
		if l, err := chips.LoungeByStake(stake); err == nil {
			f.Fields = append(f.Fields, FormField{"lounge", l.Slug})
		}
		return f
	case play.Practice:
		return NewGameForm{Action: "/games/practice", Fields: []FormField{
			{"level", opponent.String()}, controlField, {"color", side.String()},
		}}
	}
	return NewGameForm{Action: "/games/private", Fields: []FormField{controlField}}
}

// endAheadInto sets e to v, a live game's view, as its result panel will
// be once the game is over, less what only the end says (the title, the
// reason, the figures: the panel waits for them, FiguresPending): the
// game page keeps it among its templates (resultAheadOf), for board.js to
// fill from the game's end when it comes as a delta. A player's panel has
// the rematch button, which a delta's end takes away when the game
// cannot be rematched, and the PGN link, since an end before the first
// move is a whole panel.
func (v *GameView) endAheadInto(e *GameView) {
	*e = *v
	e.Result = ResultView{Show: true, Player: v.Player}
	if v.Player {
		e.Result.NewGame = newGameFormOf(v.Kind, v.ControlText, v.Stake, v.Top.Bot, v.Side)
	}
	e.Rematchable, e.RematchByMe, e.RematchByOpponent, e.RematchID = v.Player, false, false, 0
	e.Ply = max(e.Ply, 1)
}

// resultAheadOf is resultAhead of v's end (endAheadInto), drawn from a
// view of aheadViews: a GameView is some 3 KB, which a view made for
// every live game's page added to the 31 KB its render allocates
// (BenchmarkGamePage).
func resultAheadOf(v *GameView) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		e := aheadViews.Get().(*GameView)
		v.endAheadInto(e)
		err := resultAhead(e).Render(ctx, w)
		*e = GameView{} // holds nothing of the page while pooled
		aheadViews.Put(e)
		return err
	})
}

// aheadViews are the views resultAheadOf draws from.
var aheadViews = sync.Pool{New: func() any { return new(GameView) }}

// FiguresPending reports whether the panel waits for the figures of the
// settlement: a player's panel before they could be read.
func (r ResultView) FiguresPending() bool { return r.Player && !r.Voided && r.Settlement == nil }

// RatingText returns the rating change as "1200 → 1216 (+16)", or "".
func (r ResultView) RatingText() string {
	if r.Settlement == nil || !r.Settlement.Rated {
		return ""
	}
	c := r.Settlement.Rating
	return strconv.Itoa(c.Before) + " → " + strconv.Itoa(c.After) + " (" + signed(int64(c.After-c.Before)) + ")"
}

// RatingDiff returns the rating change as "+16", "−8" or "0", for data
// attributes and tests.
func (r ResultView) RatingDiff() string {
	if r.Settlement == nil || !r.Settlement.Rated {
		return ""
	}
	return strconv.Itoa(r.Settlement.Rating.After - r.Settlement.Rating.Before)
}

// ChipsText returns what the game did to the viewer's chips, in ctx's
// language: won, lost or refunded; "" for a game without a stake.
func (r ResultView) ChipsText(ctx context.Context) string {
	s := r.Settlement
	switch {
	case s == nil || s.Staked == 0:
		return ""
	case s.Refunded():
		return AmountText(ctx, "game.result_panel.chips_refunded", s.Staked)
	case s.Chips() > 0:
		return AmountText(ctx, "game.result_panel.chips_won", s.Chips())
	}
	return AmountText(ctx, "game.result_panel.chips_lost", -s.Chips())
}

// ChipsDiff returns the net change of the viewer's chips, for data
// attributes and tests.
func (r ResultView) ChipsDiff() string {
	if r.Settlement == nil {
		return "0"
	}
	return strconv.FormatInt(r.Settlement.Chips(), 10)
}

// signed writes n with its sign: "+16", "−8" (a minus sign), "0".
func signed(n int64) string {
	switch {
	case n > 0:
		return "+" + strconv.FormatInt(n, 10)
	case n < 0:
		return "−" + strconv.FormatInt(-n, 10)
	}
	return "0"
}
