package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"strings"
	"testing"
)

func TestLogFlags(t *testing.T) {
	tests := []struct {
		name          string
		args          []string
		wantErr       string
		wantJSON      bool
		debug, errors bool // whether a debug and an error line are written
	}{
		{"defaults", nil, "", false, false, true},
		{"json debug", []string{"--log-format", "json", "--log-level", "debug"}, "", true, true, true},
		{"error only", []string{"--log-level", "ERROR"}, "", false, false, true},
		{"bad format", []string{"--log-format", "xml"}, "--log-format must be", false, false, false},
		{"bad level", []string{"--log-level", "loud"}, "--log-level must be", false, false, false},
		{"level with offset", []string{"--log-level", "info+2"}, "--log-level must be", false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var lf logFlags
			lf.register(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			logger, err := lf.logger(&buf)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("logger(%q) = %v, want an error with %q", tc.args, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("logger(%q) = %v", tc.args, err)
			}
			logger.Debug("dbg")
			logger.Error("boom")
			out := buf.String()
			if got := strings.Contains(out, "dbg"); got != tc.debug {
				t.Errorf("debug line written = %v, want %v:\n%s", got, tc.debug, out)
			}
			if got := strings.Contains(out, "boom"); got != tc.errors {
				t.Errorf("error line written = %v, want %v:\n%s", got, tc.errors, out)
			}
			first, _, _ := strings.Cut(out, "\n")
			if got := json.Valid([]byte(first)); got != tc.wantJSON {
				t.Errorf("JSON = %v, want %v: %s", got, tc.wantJSON, first)
			}
		})
	}
}

func TestLogFlagsEnvironment(t *testing.T) {
	t.Setenv("SATRANC_LOG_FORMAT", "json")
	t.Setenv("SATRANC_LOG_LEVEL", "warn")
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	var lf logFlags
	lf.register(fs)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if lf.format != "json" || lf.level != "warn" {
		t.Errorf("from the environment: %+v, want json and warn", lf)
	}
}

func TestServeBadLogFlags(t *testing.T) {
	for _, args := range [][]string{{"serve", "--log-format", "xml"}, {"serve", "--log-level", "loud"}} {
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), args, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "must be") {
			t.Errorf("run(%q) = %d, stderr %q; want 2 and the allowed values", args, code, stderr.String())
		}
	}
}
