package chat

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestClean(t *testing.T) {
	tests := []struct {
		name, text, want string
		err              error
	}{
		{"plain", "good luck", "good luck", nil},
		{"trimmed", "  gg \n", "gg", nil},
		{"empty", "", "", ErrEmpty},
		{"spaces", " \t ", "", ErrEmpty},
		{"140 runes", strings.Repeat("ş", 140), strings.Repeat("ş", 140), nil},
		{"141 runes", strings.Repeat("ş", 141), "", ErrTooLong},
		{"control", "a\x07b", "", ErrInvalid},
		{"newline inside", "a\nb", "", ErrInvalid},
		{"bad utf-8", "a\xffb", "", ErrInvalid},
		{"markup kept", "<b>hi</b>", "<b>hi</b>", nil},
		{"right-to-left override stripped", "iyi \u202Esnuyo", "iyi snuyo", nil},
		{"zero-width stripped", "g\u200Bg\u200D", "gg", nil},
		{"isolates stripped", "\u2066gg\u2069", "gg", nil},
		{"marks and embeddings stripped", "\u200E\u200F\u202A\u202B\u202Cgg\u202D", "gg", nil},
		{"only invisible", "\u202E\u200B", "", ErrEmpty},
		{"invisible around spaces", "\u200B  gg  \u200B", "gg", nil},
		{"140 runes after stripping", strings.Repeat("ş\u200B", 140), strings.Repeat("ş", 140), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Clean(tc.text)
			if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("Clean(%q) = %q, %v; want %q, %v", tc.text, got, err, tc.want, tc.err)
			}
		})
	}
}

func TestGuardAllow(t *testing.T) {
	g := NewGuard()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for i := range Burst {
		if err := g.Allow(1, 1, t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
	}
	if err := g.Allow(1, 1, t0.Add(5*time.Second)); !errors.Is(err, ErrFlood) {
		t.Errorf("6th message in 10 s = %v, want ErrFlood", err)
	}
	if err := g.Allow(1, 2, t0.Add(5*time.Second)); err != nil {
		t.Errorf("the other player is limited too: %v", err)
	}
	if err := g.Allow(2, 1, t0.Add(5*time.Second)); err != nil {
		t.Errorf("the same player in another game is limited too: %v", err)
	}
	if err := g.Allow(1, 1, t0.Add(Window-time.Millisecond)); !errors.Is(err, ErrFlood) {
		t.Errorf("before the first message left the window = %v, want ErrFlood", err)
	}
	if err := g.Allow(1, 1, t0.Add(Window)); err != nil {
		t.Errorf("once the first message left the window: %v", err)
	}
	if err := g.Allow(1, 1, t0.Add(Window+500*time.Millisecond)); !errors.Is(err, ErrFlood) {
		t.Errorf("while 5 messages are in the window = %v, want ErrFlood", err)
	}
}

func TestGuardMute(t *testing.T) {
	g := NewGuard()
	if g.Muted(1, 1) {
		t.Error("muted from the start")
	}
	if !g.ToggleMute(1, 1) || !g.Muted(1, 1) {
		t.Error("ToggleMute did not mute")
	}
	if g.Muted(1, 2) || g.Muted(2, 1) {
		t.Error("the mute is not per player and game")
	}
	if g.ToggleMute(1, 1) || g.Muted(1, 1) {
		t.Error("second ToggleMute did not unmute")
	}
}
