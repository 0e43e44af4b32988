package app

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// BuildInfo is what `satranc version` prints and the footer shows.
type BuildInfo struct {
	Version  string // release version, or "devel"
	Commit   string // VCS revision, "" when unknown
	Date     string // commit or build time, "" when unknown
	Modified bool   // built from a working tree with uncommitted changes
}

// ReadBuildInfo returns the build's version, commit and date: the values
// package main was linked with (-ldflags "-X main.version=..."), where
// set, else the module version and the vcs.* settings of
// runtime/debug.ReadBuildInfo.
func ReadBuildInfo(version, commit, date string) BuildInfo {
	b := BuildInfo{Version: version, Commit: commit, Date: date}
	if info, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				if b.Date == "" {
					b.Date = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	return b
}

// Short returns the version with the first 12 digits of the commit, such
// as "v1.2.0" or "devel+0123456789ab" (with "-dirty" for a modified tree).
func (b BuildInfo) Short() string {
	v := b.Version
	if b.Commit != "" && (v == "devel" || b.Modified) {
		c := b.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		v += "+" + c
	}
	if b.Modified {
		v += "-dirty"
	}
	return v
}

// String returns the line `satranc version` prints.
func (b BuildInfo) String() string {
	c, d := b.Commit, b.Date
	if c == "" {
		c = "unknown"
	}
	if b.Modified {
		c += " (modified)"
	}
	if d == "" {
		d = "unknown"
	}
	return fmt.Sprintf("satranc %s\ncommit %s\nbuilt %s\n%s %s/%s\n", b.Version, c, d, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
