package tourney

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ErrInvalid is wrapped by the errors for malformed input: an unknown
// kind, a period key that is not a period's first day, a bad prize table.
var ErrInvalid = errors.New("tourney: invalid")

// Kind is one of the two tournaments.
type Kind uint8

// The tournaments.
const (
	// Daily is the Daily Chess Cup: from midnight to midnight.
	Daily Kind = iota + 1
	// Weekly is the Weekly Chess League: from Monday 00:00 to the next
	// Monday 00:00.
	Weekly
)

// Kinds lists the tournaments in the order pages show them.
var Kinds = []Kind{Daily, Weekly}

// String returns "daily" or "weekly", as stored and as in the URLs.
func (k Kind) String() string {
	switch k {
	case Daily:
		return "daily"
	case Weekly:
		return "weekly"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ParseKind reads a kind as String writes it.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%w: tournament %q", ErrInvalid, s)
}

// Period is one run of a tournament: the games that end in [Start, End)
// count. Start and End are in the tournament's time zone.
type Period struct {
	Kind       Kind
	Start, End time.Time
}

// keyLayout is the form of a period's key: the date of its first day.
const keyLayout = "2006-01-02"

// PeriodOf returns the period of kind k that instant t falls in, with the
// days (and weeks, from Monday) of time zone loc.
//
// The boundaries are the first instants of local days, so a day is 23 or
// 25 hours long when the clocks change, and every instant falls in exactly
// one period.
func PeriodOf(k Kind, t time.Time, loc *time.Location) Period {
	y, m, d := t.In(loc).Date()
	if k == Weekly {
		// Monday is the first day of the week (ISO 8601).
		d -= (int(time.Date(y, m, d, 12, 0, 0, 0, loc).Weekday()) + 6) % 7
	}
	return periodFrom(k, y, m, d, loc)
}

// periodFrom returns the period of kind k whose first day is y-m-d in loc
// (normalised, as time.Date does).
func periodFrom(k Kind, y int, m time.Month, d int, loc *time.Location) Period {
	days := 1
	if k == Weekly {
		days = 7
	}
	return Period{Kind: k, Start: midnight(y, m, d, loc), End: midnight(y, m, d+days, loc)}
}

// midnight returns the first instant of the day y-m-d (normalised) in loc.
// Where the clocks skip midnight itself (00:00 becomes 01:00), time.Date
// answers an instant of the day before; the day then starts at the clock
// change, the end of that instant's zone period.
func midnight(y int, m time.Month, d int, loc *time.Location) time.Time {
	y, m, d = time.Date(y, m, d, 12, 0, 0, 0, loc).Date()
	t := time.Date(y, m, d, 0, 0, 0, 0, loc)
	if ty, tm, td := t.Date(); ty != y || tm != m || td != d {
		if _, change := t.ZoneBounds(); !change.IsZero() {
			return change
		}
	}
	return t
}

// Next returns the period that starts when p ends.
func (p Period) Next() Period { return PeriodOf(p.Kind, p.End, p.End.Location()) }

// Prev returns the period that ends when p starts.
func (p Period) Prev() Period {
	return PeriodOf(p.Kind, p.Start.Add(-time.Nanosecond), p.Start.Location())
}

// Contains reports whether instant t falls in p.
func (p Period) Contains(t time.Time) bool { return !t.Before(p.Start) && t.Before(p.End) }

// Ended reports whether p is over at instant now.
func (p Period) Ended(now time.Time) bool { return !now.Before(p.End) }

// Key names p among the periods of its kind: the date of its first day,
// "2026-11-30". It is stored with the prizes and used in the URLs.
func (p Period) Key() string { return p.Start.Format(keyLayout) }

// LastDay returns the date of p's last day, for display.
func (p Period) LastDay() time.Time { return p.End.Add(-time.Nanosecond) }

// ParsePeriod returns the period of kind k whose key is key, in loc. A
// key that is no date, or for Weekly no Monday, is an error wrapping
// ErrInvalid.
func ParsePeriod(k Kind, key string, loc *time.Location) (Period, error) {
	day, err := time.ParseInLocation(keyLayout, key, loc)
	if err != nil {
		return Period{}, fmt.Errorf("%w: period %q", ErrInvalid, key)
	}
	p := PeriodOf(k, day.Add(12*time.Hour), loc) // noon: clear of any clock change at midnight
	if p.Key() != key {
		return Period{}, fmt.Errorf("%w: period %q does not start a %s period", ErrInvalid, key, k)
	}
	return p, nil
}
