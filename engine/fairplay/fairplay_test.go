package fairplay

import (
	"errors"
	"strings"
	"testing"
)

func TestParseReason(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"plain", "uses an engine", "uses an engine", true},
		{"trimmed", "  rude in chat \n", "rude in chat", true},
		{"turkish", "sohbette küfür etti", "sohbette küfür etti", true},
		{"longest", strings.Repeat("ş", MaxReason), strings.Repeat("ş", MaxReason), true},
		{"empty", "", "", false},
		{"blank", " \t ", "", false},
		{"too long", strings.Repeat("a", MaxReason+1), "", false},
		{"two lines", "one\ntwo", "", false},
		{"invalid utf-8", "bad \xff", "", false},
		{"right-to-left override stripped", "uses \u202Eenigne na", "uses enigne na", true},
		{"zero-width and isolates stripped", "\u2066rude\u200B\u2069", "rude", true},
		{"only invisible", "\u202E\u200F", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseReason(tc.in)
			if tc.ok && (err != nil || got != tc.want) {
				t.Errorf("ParseReason(%q) = %q, %v, want %q", tc.in, got, err, tc.want)
			}
			if !tc.ok && !errors.Is(err, ErrInvalidReason) {
				t.Errorf("ParseReason(%q) = %q, %v, want ErrInvalidReason", tc.in, got, err)
			}
		})
	}
}

func TestGameVoidable(t *testing.T) {
	var g Game
	for _, status := range []string{"waiting", "active", "aborted"} {
		g.Status = status
		if g.Voidable() {
			t.Errorf("a %s game is voidable", status)
		}
	}
	g.Status = "finished"
	if !g.Voidable() {
		t.Error("a finished game is not voidable")
	}
}
