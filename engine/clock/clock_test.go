package clock

import (
	"errors"
	"testing"
	"time"

	"satranc/engine/chess"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

func TestParseControl(t *testing.T) {
	tests := []struct {
		in   string
		want Control
		out  string
	}{
		{"1+0", Control{time.Minute, 0}, "1+0"},
		{"3+2", Control{3 * time.Minute, 2 * time.Second}, "3+2"},
		{"15+10", Control{15 * time.Minute, 10 * time.Second}, "15+10"},
		{" 30+0 ", Control{30 * time.Minute, 0}, "30+0"},
		{"0.5+0", Control{30 * time.Second, 0}, "0.5+0"},
		{"untimed", Untimed, "untimed"},
		{"-", Untimed, "untimed"},
	}
	for _, tc := range tests {
		got, err := ParseControl(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseControl(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
			continue
		}
		if s := got.String(); s != tc.out {
			t.Errorf("ParseControl(%q).String() = %q, want %q", tc.in, s, tc.out)
		}
	}
	for _, bad := range []string{"", "3", "3+", "+2", "0+2", "-1+0", "3+-2", "a+b", "1e3+0", "NaN+0", "3+2+1"} {
		if c, err := ParseControl(bad); !errors.Is(err, ErrInvalidControl) {
			t.Errorf("ParseControl(%q) = %v, %v, want ErrInvalidControl", bad, c, err)
		}
	}
}

func TestOffered(t *testing.T) {
	want := []string{"1+0", "3+0", "3+2", "5+0", "10+0", "15+10", "30+0"}
	if len(Offered) != len(want) {
		t.Fatalf("len(Offered) = %d, want %d", len(Offered), len(want))
	}
	for i, c := range Offered {
		if c.String() != want[i] || !c.IsOffered() || !c.Timed() {
			t.Errorf("Offered[%d] = %v, want %s, offered and timed", i, c, want[i])
		}
		if back := MustParse(c.String()); back != c {
			t.Errorf("MustParse(%v) = %v", c, back)
		}
	}
	if MustParse("2+1").IsOffered() || Untimed.IsOffered() {
		t.Error("2+1 or untimed reported as offered")
	}
}

func TestPressAndIncrement(t *testing.T) {
	c := New(MustParse("3+2"))
	if _, ok := c.Running(); ok {
		t.Fatal("new clock runs")
	}
	c.Start(chess.White, t0)
	if got := c.Remaining(chess.White, at(10*time.Second)); got != 170*time.Second {
		t.Errorf("White at 10s = %v, want 2m50s", got)
	}
	if got := c.Press(at(10 * time.Second)); got != 172*time.Second {
		t.Errorf("Press = %v, want 2m52s", got)
	}
	if side, ok := c.Running(); !ok || side != chess.Black {
		t.Errorf("Running() = %v, %v, want black", side, ok)
	}
	// White's clock no longer runs.
	if got := c.Remaining(chess.White, at(time.Hour)); got != 172*time.Second {
		t.Errorf("White while Black thinks = %v, want 2m52s", got)
	}
	if got := c.Remaining(chess.Black, at(70*time.Second)); got != 120*time.Second {
		t.Errorf("Black at 70s = %v, want 2m", got)
	}
	flagAt, ok := c.FlagAt()
	if !ok || !flagAt.Equal(at(190*time.Second)) {
		t.Errorf("FlagAt() = %v, %v, want t0+190s", flagAt, ok)
	}
	if _, flagged := c.Flagged(at(189 * time.Second)); flagged {
		t.Error("flagged 1s early")
	}
	if side, flagged := c.Flagged(at(190 * time.Second)); !flagged || side != chess.Black {
		t.Errorf("Flagged at 190s = %v, %v, want black", side, flagged)
	}
	if got := c.Remaining(chess.Black, at(time.Hour)); got != 0 {
		t.Errorf("Remaining after flag = %v, want 0", got)
	}
	c.Stop(at(100 * time.Second))
	if got := c.Remaining(chess.Black, at(time.Hour)); got != 90*time.Second {
		t.Errorf("stopped Black = %v, want 1m30s", got)
	}
	if got := c.Press(at(time.Hour)); got != 0 {
		t.Errorf("Press on stopped clock = %v, want 0", got)
	}
}

func TestUntimed(t *testing.T) {
	c := New(Untimed)
	c.Start(chess.White, t0)
	if got := c.Press(at(time.Hour)); got != 0 {
		t.Errorf("Press = %v, want 0", got)
	}
	if _, flagged := c.Flagged(at(1000 * time.Hour)); flagged {
		t.Error("untimed clock flagged")
	}
	if _, ok := c.FlagAt(); ok {
		t.Error("untimed clock has a FlagAt")
	}
	if got := c.Remaining(chess.Black, at(time.Hour)); got != 0 {
		t.Errorf("Remaining = %v, want 0", got)
	}
}

func TestSnapshotRestore(t *testing.T) {
	c := New(MustParse("5+0"))
	c.Start(chess.White, t0)
	c.Press(at(7 * time.Second))
	r := Restore(c.Snapshot())
	for _, side := range []chess.Color{chess.White, chess.Black} {
		if a, b := c.Remaining(side, at(time.Minute)), r.Remaining(side, at(time.Minute)); a != b {
			t.Errorf("%v: restored %v, want %v", side, b, a)
		}
	}
	r.SetRemaining(chess.Black, 15*time.Second, at(time.Hour))
	if got := r.Remaining(chess.Black, at(time.Hour+5*time.Second)); got != 10*time.Second {
		t.Errorf("after SetRemaining: %v, want 10s", got)
	}
	if r.Control() != MustParse("5+0") {
		t.Errorf("Control() = %v", r.Control())
	}
}
