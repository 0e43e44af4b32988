package main

import "testing"

// TestReadBuildInfoLinkerFlags: the values package main is linked with
// (-ldflags "-X main.version=...") are the build's.
func TestReadBuildInfoLinkerFlags(t *testing.T) {
	defer func(v, c, d string) { version, commit, date = v, c, d }(version, commit, date)
	version, commit, date = "v9.9.9", "feedface", "2026-02-01"
	b := buildInfo()
	if b.Version != "v9.9.9" || b.Commit != "feedface" || b.Date != "2026-02-01" {
		t.Errorf("buildInfo() = %+v, want the -X values", b)
	}
}
