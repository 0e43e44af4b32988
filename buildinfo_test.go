package main

import (
	"strings"
	"testing"
)

func TestBuildInfo(t *testing.T) {
	tests := []struct {
		name      string
		b         buildInfo
		short     string
		wantLines []string
	}{
		{"release", buildInfo{Version: "v1.2.0", Commit: "0123456789abcdef", Date: "2026-01-31T12:00:00Z"},
			"v1.2.0", []string{"satranc v1.2.0", "commit 0123456789abcdef", "built 2026-01-31T12:00:00Z"}},
		{"devel", buildInfo{Version: "devel", Commit: "0123456789abcdef"},
			"devel+0123456789ab", []string{"satranc devel", "commit 0123456789abcdef", "built unknown"}},
		{"modified", buildInfo{Version: "devel", Commit: "0123456789abcdef", Modified: true},
			"devel+0123456789ab-dirty", []string{"commit 0123456789abcdef (modified)"}},
		{"unknown", buildInfo{Version: "devel"}, "devel", []string{"commit unknown", "built unknown"}},
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

func TestReadBuildInfoLinkerFlags(t *testing.T) {
	defer func(v, c, d string) { version, commit, date = v, c, d }(version, commit, date)
	version, commit, date = "v9.9.9", "feedface", "2026-02-01"
	b := readBuildInfo()
	if b.Version != "v9.9.9" || b.Commit != "feedface" || b.Date != "2026-02-01" {
		t.Errorf("readBuildInfo() = %+v, want the -X values", b)
	}
}
