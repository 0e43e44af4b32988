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

// dateLayouts and endLayouts show a period's days and its end, by
// language: ISO dates in English, day.month.year in Turkish.
var (
	dateLayouts = map[string]string{"en": "2006-01-02", "tr": "02.01.2006"}
	endLayouts  = map[string]string{"en": "2006-01-02 15:04", "tr": "02.01.2006 15:04"}
)

// layout returns the language's layout from layouts, English's if none.
func layout(ctx context.Context, layouts map[string]string) string {
	if l, ok := layouts[Lang(ctx)]; ok {
		return l
	}
	return layouts["en"]
}

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

// FirstDay, LastDay and End show the period's bounds in its time zone,
// in the viewer's language.
func (v StandingsView) FirstDay(ctx context.Context) string {
	return v.Period.Start.Format(layout(ctx, dateLayouts))
}

// LastDay returns the date of the period's last day.
func (v StandingsView) LastDay(ctx context.Context) string {
	return v.Period.LastDay().Format(layout(ctx, dateLayouts))
}

// End returns the local date and time the period ends.
func (v StandingsView) End(ctx context.Context) string {
	return v.Period.End.Format(layout(ctx, endLayouts))
}

// Zone returns the name of the period's time zone: its IANA name, such
// as Europe/Istanbul, or in Turkish "İstanbul saati" for Istanbul.
func (v StandingsView) Zone(ctx context.Context) string {
	name := v.Period.Start.Location().String()
	if name == "Europe/Istanbul" {
		return T(ctx, "tournament.zone_istanbul")
	}
	return name
}

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
