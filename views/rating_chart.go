package views

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"satranc/engine/play"
)

// The chart's drawing, in SVG units: the viewBox is chartWidth ×
// chartHeight and the plot (where the line runs) sits inside the margins
// that hold the axis labels. The page scales the whole drawing to the
// width of its card (static/css/profile.css enlarges the text on phones,
// where the drawing is scaled down).
const (
	chartWidth  = 640
	chartHeight = 260
	plotLeft    = 58 // room for "1850" at the phone's larger text
	plotRight   = chartWidth - 14
	plotTop     = 16
	plotBottom  = chartHeight - 40 // room for the date labels
)

// The chart's limits: how many rating and date ticks at most, and how
// close (in SVG units along x) two points may be before only the later
// one gets a marker of its own, which keeps a history of hundreds of games
// a small drawing.
const (
	maxRatingTicks = 5
	maxDateTicks   = 7
	markerSpacing  = 4.0
	// lineStep is the width, in SVG units, of the slices by which a long
	// history's line is thinned (ThinLine): at most four points a slice,
	// some 2,300 in all, however many games.
	lineStep = 1.0
	// minRatingSpan is the least span of ratings the y axis covers, so
	// that a flat history still has an axis around it.
	minRatingSpan = 50
)

// RatingChart is a rating history drawn as SVG: a line through the
// rating after each rated game, against time, with a rating axis, a date
// axis, and a marker for each game that shows its value on hover or tap.
type RatingChart struct {
	// Width and Height are the drawing's size in SVG units.
	Width, Height int
	// PlotLeft, PlotRight, PlotTop and PlotBottom bound the plot area.
	PlotLeft, PlotRight, PlotTop, PlotBottom int
	// Line is the polyline's points attribute; empty for no history. It
	// runs through every game's rating, or, where games lie closer than
	// lineStep, through each slice's first, last, highest and lowest.
	Line string
	// Markers are the points shown (at most one per markerSpacing).
	Markers []ChartMarker
	// RatingTicks and DateTicks are the axes' labelled lines.
	RatingTicks []RatingTick
	DateTicks   []DateTick
	// Min and Max are the lowest and highest ratings drawn; First and
	// Last the first game's rating and the latest.
	Min, Max, First, Last int
	// FirstAt and LastAt are when the first and latest games ended.
	FirstAt, LastAt time.Time
	// Games is how many rated games the chart covers.
	Games int
}

// ChartMarker is one game's point on the chart.
type ChartMarker struct {
	X, Y   float64
	Rating int
	At     time.Time
	// LabelX is the centre of the value label (kept inside the drawing)
	// and LabelBelow says it goes under the point, at the top of the plot.
	LabelX     float64
	LabelBelow bool
}

// RatingTick is a rating on the y axis at Y.
type RatingTick struct {
	Y      float64
	Rating int
}

// DateTick is a date on the x axis at X; Unit says what it marks.
type DateTick struct {
	X    float64
	At   time.Time
	Unit DateUnit
	// First is the first tick, whose month label names the year.
	First bool
}

// DateUnit is what a date tick marks: a day, a month or a year.
type DateUnit int

// The units of DateTick.
const (
	UnitDay DateUnit = iota
	UnitMonth
	UnitYear
)

// NewRatingChart draws the history (oldest first).
func NewRatingChart(h []play.RatingChange) RatingChart {
	c := RatingChart{
		Width: chartWidth, Height: chartHeight, Games: len(h),
		PlotLeft: plotLeft, PlotRight: plotRight, PlotTop: plotTop, PlotBottom: plotBottom,
	}
	if len(h) == 0 {
		return c
	}
	c.First, c.Last = h[0].After, h[len(h)-1].After
	c.Min, c.Max = c.First, c.First
	for _, r := range h {
		c.Min, c.Max = min(c.Min, r.After), max(c.Max, r.After)
	}
	c.FirstAt, c.LastAt = h[0].At, h[len(h)-1].At

	lo, hi, step := RatingScale(c.Min, c.Max, maxRatingTicks)
	y := func(r int) float64 {
		return plotBottom - float64(plotBottom-plotTop)*float64(r-lo)/float64(hi-lo)
	}
	for r := lo; r <= hi; r += step {
		c.RatingTicks = append(c.RatingTicks, RatingTick{Y: y(r), Rating: r})
	}

	from, to := TimeDomain(c.FirstAt, c.LastAt)
	x := func(t time.Time) float64 {
		return plotLeft + float64(plotRight-plotLeft)*float64(t.Sub(from))/float64(to.Sub(from))
	}
	ticks, unit := DateTicks(from, to, maxDateTicks)
	for i, t := range ticks {
		c.DateTicks = append(c.DateTicks, DateTick{X: x(t), At: t, Unit: unit, First: i == 0})
	}
	if len(ticks) == 0 {
		// Games within one day: its date, under the middle of the axis.
		mid := from.Add(to.Sub(from) / 2)
		c.DateTicks = []DateTick{{X: x(mid), At: mid, Unit: UnitDay, First: true}}
	}

	all := make([]ChartMarker, len(h))
	for i, r := range h {
		all[i] = ChartMarker{X: x(r.At), Y: y(r.After), Rating: r.After, At: r.At}
	}
	var b strings.Builder
	for i, p := range ThinLine(all, lineStep) {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.1f,%.1f", p.X, p.Y)
	}
	c.Line = b.String()
	c.Markers = ThinMarkers(all, markerSpacing)
	for i := range c.Markers {
		m := &c.Markers[i]
		m.LabelX = clamp(m.X, labelHalfWidth, chartWidth-labelHalfWidth)
		m.LabelBelow = m.Y < plotTop+labelHeight*labelMaxScale+12
	}
	return c
}

// The value label's size in SVG units: it holds "1234 · 30 Dec 2026" at
// the chart's text size; labelMaxScale is the most the phone stylesheet
// enlarges it by, so that even then it stays inside the drawing.
const (
	labelWidth     = 148
	labelHeight    = 22
	labelMaxScale  = 1.8
	labelHalfWidth = labelWidth * labelMaxScale / 2
)

func clamp(v, lo, hi float64) float64 { return max(lo, min(v, hi)) }

// ThinMarkers keeps, of points (in x order) closer than spacing along x
// to the next kept one, the later: a long history keeps a marker per
// spacing units, each the latest game there, and the latest game always.
func ThinMarkers(points []ChartMarker, spacing float64) []ChartMarker {
	var out []ChartMarker
	for i := len(points) - 1; i >= 0; i-- {
		if len(out) > 0 && out[len(out)-1].X-points[i].X < spacing {
			continue
		}
		out = append(out, points[i])
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// ThinLine keeps, of points (in x order), in each slice of step units
// along x, the first and the last, the highest and the lowest, in their
// order. A slice is a pixel or so of the drawing, so the line looks the
// same, every peak and trough in it; but a member of 40,000 games gets a
// line of at most some 2,300 points instead of 40,000, and a chart of
// 81 KB instead of 535 KB (TestRatingChartLongHistory).
func ThinLine(points []ChartMarker, step float64) []ChartMarker {
	var out []ChartMarker
	for first := 0; first < len(points); {
		slice := math.Floor(points[first].X / step)
		last, low, high := first, first, first
		for last+1 < len(points) && math.Floor(points[last+1].X/step) == slice {
			last++
			if points[last].Y > points[low].Y { // y grows downwards
				low = last
			}
			if points[last].Y < points[high].Y {
				high = last
			}
		}
		kept := []int{first, min(low, high), max(low, high), last}
		for i, k := range kept {
			if i == 0 || k != kept[i-1] {
				out = append(out, points[k])
			}
		}
		first = last + 1
	}
	return out
}

// ratingSteps are the round steps the rating axis may take.
var ratingSteps = []int{10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000}

// RatingScale returns the rating axis for ratings from low to high: it runs
// from lo to hi in steps of step, round numbers all, with at most maxTicks
// ticks, and covers at least minRatingSpan so that a flat line (low ==
// high) sits in the middle of an axis rather than on a zero-height one.
func RatingScale(low, high, maxTicks int) (lo, hi, step int) {
	if high < low {
		low, high = high, low
	}
	if span := high - low; span < minRatingSpan {
		pad := (minRatingSpan - span + 1) / 2
		low, high = low-pad, high+pad
	}
	maxTicks = max(maxTicks, 2)
	for _, s := range ratingSteps {
		lo, hi = floorTo(low, s), ceilTo(high, s)
		if (hi-lo)/s+1 <= maxTicks {
			return lo, hi, s
		}
	}
	s := ratingSteps[len(ratingSteps)-1]
	for (ceilTo(high, s)-floorTo(low, s))/s+1 > maxTicks {
		s *= 2
	}
	return floorTo(low, s), ceilTo(high, s), s
}

// floorTo and ceilTo round v down and up to a multiple of step.
func floorTo(v, step int) int {
	q := v / step
	if v%step != 0 && v < 0 {
		q--
	}
	return q * step
}

func ceilTo(v, step int) int { return -floorTo(-v, step) }

// TimeDomain returns the span of time the date axis covers for games
// from first to last: theirs with a little room at each end (ten minutes
// at least, so that a single game sits in the middle, and an evening's games
// spread over the width rather than bunching in the middle of a day).
func TimeDomain(first, last time.Time) (from, to time.Time) {
	if last.Before(first) {
		first, last = last, first
	}
	pad := max(last.Sub(first)/25, 10*time.Minute)
	return first.Add(-pad), last.Add(pad)
}

// dateSteps are the steps the date axis may take, finest first.
var dateSteps = []struct {
	unit DateUnit
	n    int
}{
	{UnitDay, 1}, {UnitDay, 2}, {UnitDay, 7}, {UnitDay, 14},
	{UnitMonth, 1}, {UnitMonth, 2}, {UnitMonth, 3}, {UnitMonth, 6},
	{UnitYear, 1}, {UnitYear, 2}, {UnitYear, 5}, {UnitYear, 10}, {UnitYear, 25}, {UnitYear, 50}, {UnitYear, 100},
}

// DateTicks returns the dates to mark between from and to, at most
// maxTicks: the starts of days, months or years (whichever is the finest
// that fits), in from's location, and which of the three they are.
func DateTicks(from, to time.Time, maxTicks int) ([]time.Time, DateUnit) {
	for _, st := range dateSteps {
		ticks, ok := stepTicks(from, to, st.unit, st.n, maxTicks)
		if ok {
			return ticks, st.unit
		}
	}
	return nil, UnitYear
}

// stepTicks returns the starts of every n-th unit from from to to, or
// false when there would be more than maxTicks.
func stepTicks(from, to time.Time, unit DateUnit, n, maxTicks int) ([]time.Time, bool) {
	loc := from.Location()
	var t time.Time
	switch unit {
	case UnitDay:
		t = time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, loc)
		// Every n-th day counted from a fixed day, so that the ticks
		// stay put as the history grows.
		days := int(t.Sub(time.Date(2000, 1, 3, 0, 0, 0, 0, loc)).Hours()/24 + 0.5)
		if r := ((days % n) + n) % n; r != 0 {
			t = t.AddDate(0, 0, n-r)
		}
	case UnitMonth:
		t = time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, loc)
		if r := (int(t.Month()) - 1) % n; r != 0 {
			t = t.AddDate(0, n-r, 0)
		}
	default:
		t = time.Date(from.Year(), 1, 1, 0, 0, 0, 0, loc)
		if r := ((t.Year() % n) + n) % n; r != 0 {
			t = t.AddDate(n-r, 0, 0)
		}
	}
	var out []time.Time
	for ; !t.After(to); t = stepDate(t, unit, n) {
		if t.Before(from) {
			continue
		}
		if len(out) == maxTicks {
			return nil, false
		}
		out = append(out, t)
	}
	return out, true
}

func stepDate(t time.Time, unit DateUnit, n int) time.Time {
	switch unit {
	case UnitDay:
		return t.AddDate(0, 0, n)
	case UnitMonth:
		return t.AddDate(0, n, 0)
	}
	return t.AddDate(n, 0, 0)
}

// Months are the short names of the months in a language, January first.
type Months [12]string

// ParseMonths reads the space-separated month names of a locale string;
// a string with other than twelve names gives the numbers 1 to 12.
func ParseMonths(s string) Months {
	var m Months
	f := strings.Fields(s)
	for i := range m {
		if len(f) == 12 {
			m[i] = f[i]
		} else {
			m[i] = strconv.Itoa(i + 1)
		}
	}
	return m
}

// TickLabel returns a date tick's label: "3 Dec" for a day, "Dec" for a
// month ("Jan 2027" for January and for the first tick, which names the
// year), "2026" for a year.
func (m Months) TickLabel(t DateTick) string {
	switch t.Unit {
	case UnitDay:
		return strconv.Itoa(t.At.Day()) + " " + m[t.At.Month()-1]
	case UnitMonth:
		if t.First || t.At.Month() == time.January {
			return m[t.At.Month()-1] + " " + strconv.Itoa(t.At.Year())
		}
		return m[t.At.Month()-1]
	}
	return strconv.Itoa(t.At.Year())
}

// Date returns t as "3 Dec 2026".
func (m Months) Date(t time.Time) string {
	return strconv.Itoa(t.Day()) + " " + m[t.Month()-1] + " " + strconv.Itoa(t.Year())
}

// PointLabel returns a marker's value: "1234 · 3 Dec 2026".
func (m Months) PointLabel(p ChartMarker) string {
	return strconv.Itoa(p.Rating) + " · " + m.Date(p.At)
}

// labelBoxWidth is the width of the box behind a value label of s, for
// the chart's text size (an average bold glyph is about 6.8 units wide).
func labelBoxWidth(s string) float64 {
	return min(float64(utf8.RuneCountInString(s))*6.8+16, labelWidth)
}

// f1 formats an SVG coordinate.
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// monthsOf returns the month names of the page language.
func monthsOf(ctx context.Context) Months { return ParseMonths(T(ctx, "player.months")) }

// chartLabel returns the chart's text alternative: how many rated games,
// from what rating to what, between which dates, lowest and highest.
func chartLabel(ctx context.Context, c RatingChart) string {
	m := monthsOf(ctx)
	return TND(ctx, "player.chart_label", int64(c.Games), map[string]any{
		"First": c.First, "Last": c.Last, "Min": c.Min, "Max": c.Max,
		"From": m.Date(c.FirstAt), "To": m.Date(c.LastAt),
	})
}

// deltaText returns a rating change as "+12", "−8" (a minus sign) or "±0".
func deltaText(d int) string {
	switch {
	case d > 0:
		return "+" + strconv.Itoa(d)
	case d < 0:
		return "−" + strconv.Itoa(-d)
	}
	return "±0"
}

// deltaClass returns the class of a rating change's colour.
func deltaClass(d int) string {
	switch {
	case d > 0:
		return "delta-up"
	case d < 0:
		return "delta-down"
	}
	return "delta-none"
}
