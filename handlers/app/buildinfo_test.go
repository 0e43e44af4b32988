package app

import (
	"strings"
	"testing"
)

func TestBuildInfo(t *testing.T) {
	tests := []struct {
		name      string
		b         BuildInfo
		short     string
		wantLines []string
	}{
		{"release", BuildInfo{Version: "v1.2.0", Commit: "0123456789abcdef", Date: "2026-01-31T12:00:00Z"},
			"v1.2.0", []string{"satranc v1.2.0", "commit 0123456789abcdef", "built 2026-01-31T12:00:00Z"}},
		{"devel", BuildInfo{Version: "devel", Commit: "0123456789abcdef"},
			"devel+0123456789ab", []string{"satranc devel", "commit 0123456789abcdef", "built unknown"}},
		{"modified", BuildInfo{Version: "devel", Commit: "0123456789abcdef", Modified: true},
			"devel+0123456789ab-dirty", []string{"commit 0123456789abcdef (modified)"}},
		{"unknown", BuildInfo{Version: "devel"}, "devel", []string{"commit unknown", "built unknown"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.b.Short(); got != tc.short {
				t.Errorf("Short() = %q, want %q", got, tc.short)
			}
			s := tc.b.String()
			for _, l := range tc.wantLines {
				if !strings.Contains(s, l+"\n") {
					t.Errorf("String() = %q, want the line %q", s, l)
				}
			}
		})
	}
}
