package main

import "satranc/handlers/app"

// commit and date describe the build; like version they may be set with
// -ldflags "-X main.commit=abc123 -X main.date=2026-01-31T12:00:00Z", and
// otherwise come from the VCS information the go command records.
var commit, date string

// buildInfo is what `satranc version` prints and the footer shows.
func buildInfo() app.BuildInfo { return app.ReadBuildInfo(version, commit, date) }
