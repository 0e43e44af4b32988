package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// logFlags are the logging flags of serve: --log-format and --log-level.
type logFlags struct {
	format string // "text" or "json"
	level  string // "debug", "info", "warn" or "error"
}

// register adds the flags to fs, with defaults from SATRANC_LOG_FORMAT and
// SATRANC_LOG_LEVEL.
func (l *logFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.format, "log-format", envOr("SATRANC_LOG_FORMAT", "text"),
		"log `format`: text (key=value lines) or json (one object a line) (env SATRANC_LOG_FORMAT)")
	fs.StringVar(&l.level, "log-level", envOr("SATRANC_LOG_LEVEL", "info"),
		"least `level` logged: debug, info, warn or error (env SATRANC_LOG_LEVEL)")
}

// logger returns a log/slog logger writing to w as the flags say.
func (l logFlags) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	switch strings.ToLower(l.level) {
	case "debug", "info", "warn", "error":
		if err := level.UnmarshalText([]byte(l.level)); err != nil {
			return nil, fmt.Errorf("--log-level: %w", err)
		}
	default:
		return nil, fmt.Errorf("--log-level must be debug, info, warn or error, not %q", l.level)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(l.format) {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format must be text or json, not %q", l.format)
}
