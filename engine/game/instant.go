package game

import "time"

// Instant is a moment as Unix nanoseconds: a MoveRecord holds one rather
// than a time.Time, whose location is a pointer, so that a game's move
// records (the bulk of a live game's memory) hold no pointer, and the
// collector never has to scan them. It reads and writes JSON as a
// time.Time does.
type Instant int64

// InstantOf returns t as an Instant. Its monotonic clock reading is
// dropped: the clocks run on the times given to the game, not on these.
func InstantOf(t time.Time) Instant { return Instant(t.UnixNano()) }

// Time returns the Instant as a time in the local time zone.
func (i Instant) Time() time.Time { return time.Unix(0, int64(i)) }

// MarshalJSON writes the Instant as time.Time's MarshalJSON writes a UTC
// time (RFC 3339).
func (i Instant) MarshalJSON() ([]byte, error) { return i.Time().UTC().MarshalJSON() }

// UnmarshalJSON reads a time as time.Time's UnmarshalJSON does.
func (i *Instant) UnmarshalJSON(b []byte) error {
	var t time.Time
	if err := t.UnmarshalJSON(b); err != nil {
		return err
	}
	*i = InstantOf(t)
	return nil
}
