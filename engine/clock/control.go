package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ErrInvalidControl is wrapped by errors for text that is not a time control.
var ErrInvalidControl = errors.New("clock: invalid time control")

// Control is a time control: the time each player starts with and the
// increment added after each of their moves. The zero Control is untimed.
type Control struct {
	Initial   time.Duration
	Increment time.Duration
}

// Untimed is the control of a game without clocks (practice games only).
var Untimed = Control{}

// Offered lists the time controls of SPEC section 4, fastest first.
var Offered = []Control{
	{1 * time.Minute, 0},
	{3 * time.Minute, 0},
	{3 * time.Minute, 2 * time.Second},
	{5 * time.Minute, 0},
	{10 * time.Minute, 0},
	{15 * time.Minute, 10 * time.Second},
	{30 * time.Minute, 0},
}

// Timed reports whether the control has clocks at all.
func (c Control) Timed() bool { return c.Initial > 0 }

// IsOffered reports whether c is one of the Offered controls.
func (c Control) IsOffered() bool {
	for _, o := range Offered {
		if o == c {
			return true
		}
	}
	return false
}

// String returns the control as minutes+seconds, such as "3+2", or
// "untimed" for the zero Control. A part that is not a whole number of
// minutes or seconds is written with decimals ("0.5+0").
func (c Control) String() string {
	if !c.Timed() {
		return "untimed"
	}
	return formatUnit(c.Initial, time.Minute) + "+" + formatUnit(c.Increment, time.Second)
}

func formatUnit(d, unit time.Duration) string {
	if d%unit == 0 {
		return strconv.FormatInt(int64(d/unit), 10)
	}
	return strconv.FormatFloat(float64(d)/float64(unit), 'f', -1, 64)
}

// ParseControl reads a control written as String writes it: "3+2" (three
// minutes, two seconds' increment), "untimed" (or "-"). It accepts any
// positive initial time, not just the Offered ones; callers that must offer
// only those check IsOffered.
func ParseControl(s string) (Control, error) {
	s = strings.TrimSpace(s)
	if s == "untimed" || s == "-" {
		return Untimed, nil
	}
	mins, secs, ok := strings.Cut(s, "+")
	if !ok {
		return Control{}, fmt.Errorf("%w: %q: want minutes+seconds such as 3+2", ErrInvalidControl, s)
	}
	initial, err1 := parseUnit(mins, time.Minute)
	inc, err2 := parseUnit(secs, time.Second)
	if err1 != nil || err2 != nil || initial <= 0 || inc < 0 {
		return Control{}, fmt.Errorf("%w: %q: want minutes+seconds such as 3+2", ErrInvalidControl, s)
	}
	return Control{Initial: initial, Increment: inc}, nil
}

func parseUnit(s string, unit time.Duration) (time.Duration, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 1e6 || strings.ContainsAny(s, "eEnNiI_") {
		return 0, errors.New("bad number")
	}
	return time.Duration(f * float64(unit)).Round(time.Millisecond), nil
}

// MustParse is ParseControl for constants; it panics on an error.
func MustParse(s string) Control {
	c, err := ParseControl(s)
	if err != nil {
		panic(err)
	}
	return c
}
