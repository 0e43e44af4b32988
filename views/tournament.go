package views

import (
	"context"

	"satranc/engine/tourney"
)

// EventStandings names the live standings stream's event, which carries
// the whole standings panel (StandingsPanel).
const EventStandings = "standings"

// PrizesShown is how many tournament prizes a profile lists.
const PrizesShown = 20

// PastResults is how many past periods a tournament page lists.
const PastResults = 10

// dateLayout and endLayout show a period's days and its end.
const (
	dateLayout = "2006-01-02"
	endLayout  = "2006-01-02 15:04"
)

// StandingsView is the standings panel of one period: which period, and
// the players ranked.
type StandingsView struct {
	Period tourney.Period
	// Live is set for the running period, whose standings still change.
	Live      bool
	Standings []tourney.Standing
	// Viewer is the logged-in viewer (0 for a guest), whose line is
	// highlighted.
	Viewer int64
}

// Kind returns the tournament's name in URLs and message IDs.
func (v StandingsView) Kind() string { return v.Period.Kind.String() }

// FirstDay, LastDay and End show the period's bounds in its time zone.
func (v StandingsView) FirstDay() string { return v.Period.Start.Format(dateLayout) }

// LastDay returns the date of the period's last day.
func (v StandingsView) LastDay() string { return v.Period.LastDay().Format(dateLayout) }

// End returns the local date and time the period ends.
func (v StandingsView) End() string { return v.Period.End.Format(endLayout) }

// Zone returns the name of the period's time zone, such as Europe/Istanbul.
func (v StandingsView) Zone() string { return v.Period.Start.Location().String() }

// TournamentView is a tournament page: the standings of one period, its
// prizes (the table for the running period, the prizes won for a past
// one) and the latest past periods with their winners.
type TournamentView struct {
	Panel StandingsView
	// Stream is set when the running period's panel follows the live
	// stream (the server runs games).
	Stream bool
	// Prizes is the prize table, first place first (running period).
	Prizes []tourney.Prize
	// Paid and Winners: for a past period, whether its prizes were paid,
	// and who won what.
	Paid    bool
	Winners []tourney.Winner
	// Past lists the latest paid periods with winners, the latest first.
	Past []tourney.Result
}

// PastPath returns the page of a past period of kind.
func PastPath(kind tourney.Kind, key string) string { return TournamentPath(kind) + "/" + key }

// TournamentPath returns the page of kind's running period.
func TournamentPath(kind tourney.Kind) string { return "/tournaments/" + kind.String() }

// PrizeText describes a prize in ctx's language: its chips, its cosmetic
// item, or both.
func PrizeText(ctx context.Context, p tourney.Prize) string {
	chips := AmountText(ctx, "tournament.prize_chips", p.Chips)
	switch {
	case p.Item == "":
		return chips
	case p.Chips == 0:
		return ItemName(ctx, p.Item)
	}
	return chips + " + " + ItemName(ctx, p.Item)
}

// ItemName returns a prize item's name in ctx's language: the message
// tournament.item.<ID> for the tournaments' own frames, else the
// catalogue's name of the item (views.ItemNameID).
func ItemName(ctx context.Context, item string) string {
	id := "tournament.item." + item
	if s := T(ctx, id); s != id {
		return s
	}
	return T(ctx, ItemNameID(item))
}
