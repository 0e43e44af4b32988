package views

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"satranc/engine/play"
)

func TestRatingScale(t *testing.T) {
	tests := []struct {
		low, high    int
		lo, hi, step int
	}{
		{1200, 1200, 1160, 1240, 20}, // flat: still an axis around it
		{1180, 1220, 1160, 1240, 20},
		{1100, 1400, 1100, 1400, 100},
		{800, 1700, 750, 1750, 250},
		{1213, 1219, 1180, 1260, 20},
		{400, 2800, 0, 3000, 1000},
	}
	for _, tc := range tests {
		lo, hi, step := RatingScale(tc.low, tc.high, 5)
		if lo != tc.lo || hi != tc.hi || step != tc.step {
			t.Errorf("RatingScale(%d, %d) = %d..%d by %d, want %d..%d by %d", tc.low, tc.high, lo, hi, step, tc.lo, tc.hi, tc.step)
		}
	}
	// Properties over many ranges: round steps, the ratings inside, at most
	// five ticks, at least two intervals' worth of span.
	for low := 600; low < 2600; low += 37 {
		for _, span := range []int{0, 3, 49, 50, 120, 333, 900, 1900} {
			lo, hi, step := RatingScale(low, low+span, 5)
			if lo%step != 0 || hi%step != 0 || lo > low || hi < low+span || (hi-lo)/step+1 > 5 || hi-lo < minRatingSpan {
				t.Fatalf("RatingScale(%d, %d) = %d..%d by %d", low, low+span, lo, hi, step)
			}
		}
	}
}

func TestDateTicks(t *testing.T) {
	day := func(y int, m time.Month, d, h int) time.Time { return time.Date(y, m, d, h, 0, 0, 0, time.UTC) }
	tests := []struct {
		name        string
		first, last time.Time
		unit        DateUnit
		labels      string
	}{
		{"one game", day(2026, 12, 3, 15), day(2026, 12, 3, 15), UnitDay, ""},
		{"an evening", day(2026, 12, 3, 19), day(2026, 12, 3, 23), UnitDay, ""},
		{"till midnight", day(2026, 12, 3, 19), day(2026, 12, 3, 24), UnitDay, "4 Dec"},
		{"over midnight", day(2026, 12, 3, 21), day(2026, 12, 4, 2), UnitDay, "4 Dec"},
		{"two days", day(2026, 12, 3, 13), day(2026, 12, 4, 18), UnitDay, "4 Dec"},
		{"four days", day(2026, 12, 1, 10), day(2026, 12, 4, 20), UnitDay, "2 Dec|3 Dec|4 Dec"},
		{"a month", day(2026, 11, 10, 10), day(2026, 12, 8, 10), UnitDay, "16 Nov|23 Nov|30 Nov|7 Dec"},
		{"half a year", day(2026, 3, 10, 10), day(2026, 9, 20, 10), UnitMonth, "Apr 2026|May|Jun|Jul|Aug|Sep"},
		{"over new year", day(2026, 10, 2, 10), day(2027, 2, 20, 10), UnitMonth, "Oct 2026|Nov|Dec|Jan 2027|Feb"},
		{"three years", day(2024, 5, 1, 10), day(2027, 3, 1, 10), UnitMonth, "Jul 2024|Jan 2025|Jul|Jan 2026|Jul|Jan 2027"},
		{"twelve years", day(2014, 5, 1, 10), day(2026, 3, 1, 10), UnitYear, "2014|2016|2018|2020|2022|2024|2026"},
	}
	m := ParseMonths("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			from, to := TimeDomain(tc.first, tc.last)
			if from.After(tc.first) || to.Before(tc.last) || to.Sub(from) < 20*time.Minute {
				t.Fatalf("TimeDomain = %v..%v, not around the games", from, to)
			}
			ticks, unit := DateTicks(from, to, maxDateTicks)
			var got []string
			for i, at := range ticks {
				if at.Before(from) || at.After(to) {
					t.Errorf("tick %v outside %v..%v", at, from, to)
				}
				got = append(got, m.TickLabel(DateTick{At: at, Unit: unit, First: i == 0}))
			}
			if unit != tc.unit || strings.Join(got, "|") != tc.labels {
				t.Errorf("ticks (unit %d) %q, want (unit %d) %q", unit, strings.Join(got, "|"), tc.unit, tc.labels)
			}
		})
	}
}

func TestMonths(t *testing.T) {
	tr := ParseMonths("Oca Şub Mar Nis May Haz Tem Ağu Eyl Eki Kas Ara")
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	if got := tr.PointLabel(ChartMarker{Rating: 1234, At: at}); got != "1234 · 3 Ara 2026" {
		t.Errorf("PointLabel = %q", got)
	}
	if got := ParseMonths("too few").Date(at); got != "3 12 2026" {
		t.Errorf("Date with broken month names = %q, want numbers", got)
	}
}

func TestNewRatingChart(t *testing.T) {
	if c := NewRatingChart(nil); c.Line != "" || c.Games != 0 || len(c.Markers) != 0 {
		t.Errorf("NewRatingChart(nil) = %+v, want empty", c)
	}
	at := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	one := NewRatingChart([]play.RatingChange{{GameID: 1, Before: 1200, After: 1220, At: at}})
	if len(one.Markers) != 1 || one.First != 1220 || one.Last != 1220 || len(one.RatingTicks) < 3 {
		t.Fatalf("one game: %+v", one)
	}
	// A single game sits in the middle, at the middle rating tick, its
	// date under it.
	if m := one.Markers[0]; m.X != (plotLeft+plotRight)/2.0 || m.Y <= plotTop || m.Y >= plotBottom {
		t.Errorf("one game's marker at %.1f,%.1f", m.X, m.Y)
	}
	if m := ParseMonths("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec"); len(one.DateTicks) != 1 || m.TickLabel(one.DateTicks[0]) != "3 Dec" {
		t.Errorf("one game's date ticks %+v", one.DateTicks)
	}

	// An evening's ten games spread over the width, a marker each.
	var evening []play.RatingChange
	for i := range 10 {
		evening = append(evening, play.RatingChange{GameID: int64(i + 1), Before: 1200, After: 1200 + i, At: at.Add(time.Duration(i) * 8 * time.Minute)})
	}
	if c := NewRatingChart(evening); len(c.Markers) != 10 || c.Markers[9].X-c.Markers[0].X < (plotRight-plotLeft)/2 {
		t.Errorf("an evening's games: %d markers from x %.1f to %.1f", len(c.Markers), c.Markers[0].X, c.Markers[len(c.Markers)-1].X)
	}

	h := []play.RatingChange{
		{GameID: 1, Before: 1200, After: 1220, At: at},
		{GameID: 2, Before: 1220, After: 1180, At: at.Add(24 * time.Hour)},
		{GameID: 3, Before: 1180, After: 1201, At: at.Add(48 * time.Hour)},
	}
	c := NewRatingChart(h)
	if c.Min != 1180 || c.Max != 1220 || c.First != 1220 || c.Last != 1201 || c.Games != 3 || len(c.Markers) != 3 {
		t.Fatalf("NewRatingChart = %+v", c)
	}
	if c.Markers[1].Y <= c.Markers[0].Y || c.Markers[0].X >= c.Markers[1].X {
		t.Errorf("markers not placed by rating and time: %+v", c.Markers)
	}
	for _, m := range c.Markers {
		if m.X < plotLeft || m.X > plotRight || m.Y < plotTop || m.Y > plotBottom {
			t.Errorf("marker %+v outside the plot", m)
		}
		if m.LabelX-labelHalfWidth < 0 || m.LabelX+labelHalfWidth > chartWidth {
			t.Errorf("marker %+v: its label leaves the drawing", m)
		}
	}
	if got := strings.Count(c.Line, ","); got != 3 {
		t.Errorf("line %q, want three points", c.Line)
	}
}

// TestRatingChartMany: hundreds of games draw a marker per few units
// only, the latest always among them, and a line thinned to four points
// a unit at most, so the drawing stays small.
func TestRatingChartMany(t *testing.T) {
	at := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	var h []play.RatingChange
	r := 1200
	for i := range 900 {
		next := r + (i*7919)%41 - 20
		h = append(h, play.RatingChange{GameID: int64(i + 1), Before: r, After: next, At: at.Add(time.Duration(i) * 9 * time.Hour)})
		r = next
	}
	c := NewRatingChart(h)
	if n := strings.Count(c.Line, " ") + 1; n > 4*(plotRight-plotLeft+1) || n < (plotRight-plotLeft)/2 {
		t.Errorf("line has %d points for 900 games", n)
	}
	if latest := c.Markers[len(c.Markers)-1]; !strings.HasSuffix(c.Line, fmt.Sprintf(" %.1f,%.1f", latest.X, latest.Y)) {
		t.Errorf("line …%s does not end at the latest game", c.Line[len(c.Line)-20:])
	}
	if n := len(c.Markers); n > (plotRight-plotLeft)/markerSpacing+1 || n < 50 {
		t.Errorf("%d markers for 900 games", n)
	}
	if last := c.Markers[len(c.Markers)-1]; last.Rating != r || !last.At.Equal(h[899].At) {
		t.Errorf("last marker %+v, want the latest game", last)
	}
	if len(c.DateTicks) == 0 || len(c.DateTicks) > maxDateTicks {
		t.Errorf("%d date ticks", len(c.DateTicks))
	}
}

// TestThinLine: of the points in each slice of the line, the first, the
// last, the highest and the lowest are kept, in order, and the others
// dropped; a slice of one point keeps it.
func TestThinLine(t *testing.T) {
	pt := func(x, y float64) ChartMarker { return ChartMarker{X: x, Y: y} }
	points := []ChartMarker{
		pt(10.1, 50), pt(10.2, 40), pt(10.3, 90), pt(10.4, 60), pt(10.5, 55), // a slice with a dip and a peak
		pt(11.5, 70),               // a slice of one
		pt(12.0, 30), pt(12.9, 35), // of two
		pt(13.2, 20), pt(13.3, 20), pt(13.4, 20), // flat
	}
	got := ThinLine(points, 1)
	want := []ChartMarker{pt(10.1, 50), pt(10.2, 40), pt(10.3, 90), pt(10.5, 55), pt(11.5, 70), pt(12.0, 30), pt(12.9, 35), pt(13.2, 20), pt(13.4, 20)}
	if !slices.Equal(got, want) {
		t.Errorf("ThinLine = %v, want %v", got, want)
	}
	if got := ThinLine(nil, 1); len(got) != 0 {
		t.Errorf("ThinLine(nil) = %v", got)
	}
}

// TestRatingChartLongHistory: a member of 40,000 rated games gets a
// line of a few thousand points that still reaches the highest and the
// lowest rating, and a chart a small part of a page.
func TestRatingChartLongHistory(t *testing.T) {
	at := time.Date(2023, 12, 7, 12, 0, 0, 0, time.UTC)
	var h []play.RatingChange
	r := 1500
	for i := range 40000 {
		r += (i*7919)%33 - 16
		after := r
		switch i {
		case 21111:
			after = 3000 // one game's peak, and one's trough, each within a slice of hundreds
		case 31111:
			after = 300
		}
		h = append(h, play.RatingChange{GameID: int64(i + 1), Before: r, After: after, At: at.Add(time.Duration(i) * 39 * time.Minute)})
	}
	c := NewRatingChart(h)
	if n := strings.Count(c.Line, " ") + 1; n > 4*(plotRight-plotLeft+1) {
		t.Errorf("the line of 40,000 games has %d points", n)
	}
	lo, hi := c.RatingTicks[0].Rating, c.RatingTicks[len(c.RatingTicks)-1].Rating
	for _, rating := range []int{3000, 300} {
		y := fmt.Sprintf(",%.1f", plotBottom-float64(plotBottom-plotTop)*float64(rating-lo)/float64(hi-lo))
		if !strings.Contains(c.Line, y+" ") {
			t.Errorf("the line misses the rating of %d (y%s)", rating, y)
		}
	}
	var b strings.Builder
	if err := ratingChart(c).Render(ctxIn("en"), &b); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 90_000 { // 535 KB when the line ran through every game
		t.Errorf("the chart of 40,000 games is %d bytes", b.Len())
	}
}

// TestRatingChartPageSize: a profile with hundreds of rated games stays a
// small page, and shows its values in the page's language.
func TestRatingChartPageSize(t *testing.T) {
	at := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	var h []play.RatingChange
	for i := range 600 {
		h = append(h, play.RatingChange{GameID: int64(i + 1), Before: 1200, After: 1200 + (i*37)%150, At: at.Add(time.Duration(i) * 20 * time.Hour)})
	}
	var b strings.Builder
	if err := ratingChart(NewRatingChart(h)).Render(ctxIn("tr"), &b); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes", b.Len())
	if b.Len() > 80_000 {
		t.Errorf("the chart of 600 games is %d bytes", b.Len())
	}
	if !strings.Contains(b.String(), ">Oca 2026<") || !strings.Contains(b.String(), "arasında 600 puanlı oyun") {
		t.Errorf("Turkish chart without Turkish dates or label: %.600s", b.String())
	}
}
