package views

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"satranc/engine/clock"
	"satranc/engine/lobby"
)

// EventWait names the waiting page's stream event, which carries the
// waiting panel.
const EventWait = "wait"

// LobbyView is the lobby page: Quick Play's time controls and the five
// lounges, each with whether the viewer may sit there and why not.
type LobbyView struct {
	Controls []clock.Control
	// Quick is why the viewer may not play Quick Play; lobby.Allowed if
	// they may.
	Quick   lobby.Refusal
	Lounges []LoungeView
	Balance int64
	// Error is a refused join, shown above the tables.
	Error *Message
	// Notice is a message about the player's chips, such as the daily bonus
	// just claimed.
	Notice *Message
}

// LoungeView is one lounge in the lobby.
type LoungeView struct {
	Slug, Name  string
	Stake       int64
	Requirement int64
	Reserved    bool
	Refusal     lobby.Refusal
}

// Open reports whether the viewer may sit in the lounge.
func (l LoungeView) Open() bool { return l.Refusal == lobby.Allowed }

// NewLobbyView builds the lobby page of o.
func NewLobbyView(o lobby.Overview, formError *Message) LobbyView {
	v := LobbyView{Controls: clock.Offered, Quick: o.Quick, Balance: o.Player.Balance, Error: formError}
	for _, s := range o.Lounges {
		v.Lounges = append(v.Lounges, LoungeView{
			Slug: s.Lounge.Slug, Name: s.Lounge.Name, Stake: s.Lounge.Stake,
			Requirement: s.Lounge.Requirement(), Reserved: s.Lounge.Reserved, Refusal: s.Refusal,
		})
	}
	return v
}

// RefusalText returns why a table is closed to the viewer.
func RefusalText(ctx context.Context, r lobby.Refusal) string {
	return T(ctx, "lobby.refusal."+string(r))
}

// Amount returns n with its digits grouped as ctx's language groups them:
// "2,500" in English, "2.500" in Turkish.
func Amount(ctx context.Context, n int64) string {
	return message.NewPrinter(language.Make(Lang(ctx))).Sprintf("%d", n)
}

// WaitView is the waiting page of a player in a queue.
type WaitView struct {
	// Lounge is the lounge's name, "" for Quick Play.
	Lounge  string
	Stake   int64
	Control string
	// Elapsed is how long the player has waited so far.
	Elapsed time.Duration
	// Game is set once the game has started: the panel then sends the
	// page there.
	Game int64
	// Unstaked: the lounge game counts as unstaked (same opponent again).
	Unstaked bool
}

// NewWaitView builds the waiting panel of st at now. lounge is the name of
// the lounge st waits in, "" for Quick Play.
func NewWaitView(st lobby.Status, lounge string, stake int64, now time.Time) WaitView {
	v := WaitView{Lounge: lounge, Stake: stake, Control: st.Table.Control.String(), Game: st.Game, Unstaked: st.Unstaked}
	if st.State == lobby.Waiting {
		v.Elapsed = max(now.Sub(st.Since), 0).Truncate(time.Second)
	}
	return v
}

// ElapsedText returns the waiting time as m:ss.
func (v WaitView) ElapsedText() string {
	s := int(v.Elapsed / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// GamePath returns the path of the started game.
func (v WaitView) GamePath() string { return fmt.Sprintf("/games/%d", v.Game) }

// GoTrigger is when the page goes to the game: at once, or after a few
// seconds when there is the unstaked notice to read.
func (v WaitView) GoTrigger() string {
	if v.Unstaked {
		return "load delay:4s"
	}
	return "load"
}
