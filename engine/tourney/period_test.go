package tourney

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"
	_ "time/tzdata" // the zones below, on a machine without zoneinfo
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestPeriodOf(t *testing.T) {
	ist := mustZone(t, "Europe/Istanbul") // UTC+3 all year
	ber := mustZone(t, "Europe/Berlin")
	sao := mustZone(t, "America/Sao_Paulo") // in 2018 the clocks went from 00:00 to 01:00 on 4 November
	utc := func(s string) time.Time {
		at, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	cases := []struct {
		name       string
		kind       Kind
		at         string
		loc        *time.Location
		start, end string // RFC 3339, UTC
		key        string
	}{
		{"istanbul evening", Daily, "2026-11-29T20:59:59Z", ist, "2026-11-28T21:00:00Z", "2026-11-29T21:00:00Z", "2026-11-29"},
		{"istanbul midnight", Daily, "2026-11-29T21:00:00Z", ist, "2026-11-29T21:00:00Z", "2026-11-30T21:00:00Z", "2026-11-30"},
		{"istanbul sunday night", Weekly, "2026-11-29T20:59:59Z", ist, "2026-11-22T21:00:00Z", "2026-11-29T21:00:00Z", "2026-11-23"},
		{"istanbul monday 00:00", Weekly, "2026-11-29T21:00:00Z", ist, "2026-11-29T21:00:00Z", "2026-12-06T21:00:00Z", "2026-11-30"},
		{"istanbul new year", Weekly, "2027-01-01T12:00:00Z", ist, "2026-12-27T21:00:00Z", "2027-01-03T21:00:00Z", "2026-12-28"},
		{"berlin spring forward: 23 hours", Daily, "2026-03-29T12:00:00Z", ber, "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z", "2026-03-29"},
		{"berlin fall back: 25 hours", Daily, "2026-10-25T12:00:00Z", ber, "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z", "2026-10-25"},
		{"berlin week with a change", Weekly, "2026-03-29T21:59:59Z", ber, "2026-03-22T23:00:00Z", "2026-03-29T22:00:00Z", "2026-03-23"},
		{"sao paulo skipped midnight", Daily, "2018-11-04T12:00:00Z", sao, "2018-11-04T03:00:00Z", "2018-11-05T02:00:00Z", "2018-11-04"},
		{"sao paulo day before the gap", Daily, "2018-11-04T02:59:59Z", sao, "2018-11-03T03:00:00Z", "2018-11-04T03:00:00Z", "2018-11-03"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := PeriodOf(tc.kind, utc(tc.at), tc.loc)
			if !p.Start.Equal(utc(tc.start)) || !p.End.Equal(utc(tc.end)) || p.Key() != tc.key {
				t.Errorf("PeriodOf(%s, %s) = [%s, %s) %s, want [%s, %s) %s", tc.kind, tc.at,
					p.Start.UTC().Format(time.RFC3339), p.End.UTC().Format(time.RFC3339), p.Key(), tc.start, tc.end, tc.key)
			}
		})
	}
}

// TestPeriodsTile: in zones with and without clock changes, every instant
// falls in the period PeriodOf gives, the periods follow one another
// without gap or overlap, and each key parses back to its period.
func TestPeriodsTile(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"Europe/Istanbul", "Europe/Berlin", "America/Sao_Paulo", "America/New_York", "Australia/Lord_Howe", "UTC"} {
		loc := mustZone(t, name)
		for _, k := range Kinds {
			base := time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)
			for range 2000 {
				at := base.Add(time.Duration(r.Int64N(int64(12 * 365 * 24 * time.Hour))))
				p := PeriodOf(k, at, loc)
				if !p.Contains(at) {
					t.Fatalf("%s %s: PeriodOf(%s) = [%s, %s) does not contain it", name, k, at, p.Start, p.End)
				}
				if n := p.Next(); !n.Start.Equal(p.End) || n.Prev() != p {
					t.Fatalf("%s %s: period %s is followed by [%s, %s)", name, k, p.Key(), n.Start, n.End)
				}
				if q, err := ParsePeriod(k, p.Key(), loc); err != nil || q != p {
					t.Fatalf("%s %s: ParsePeriod(%s) = %v, %v", name, k, p.Key(), q, err)
				}
				if h := p.End.Sub(p.Start).Hours(); k == Daily && (h < 22 || h > 26) || k == Weekly && (h < 166 || h > 170) {
					t.Fatalf("%s %s: period %s lasts %v hours", name, k, p.Key(), h)
				}
			}
		}
	}
}

func TestParsePeriodRefuses(t *testing.T) {
	ist := mustZone(t, "Europe/Istanbul")
	for _, tc := range []struct {
		kind Kind
		key  string
	}{{Daily, ""}, {Daily, "2026-13-01"}, {Daily, "yesterday"}, {Weekly, "2026-11-29"}, {Daily, "2026-11-29x"}} {
		if _, err := ParsePeriod(tc.kind, tc.key, ist); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParsePeriod(%s, %q) = %v, want ErrInvalid", tc.kind, tc.key, err)
		}
	}
	if _, err := ParseKind("monthly"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseKind(monthly) = %v, want ErrInvalid", err)
	}
}
