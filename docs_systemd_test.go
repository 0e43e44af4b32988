package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// documentedUnits returns the systemd units and drop-ins
// docs/operations.md gives, by path under /etc/systemd/system: each ini
// block holds one or more, each headed by a comment naming its file
// (# /etc/systemd/system/NAME).
func documentedUnits(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const header = "# /etc/systemd/system/"
	units := map[string]string{}
	inBlock, name := false, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "```ini":
			inBlock, name = true, ""
		case inBlock && line == "```":
			inBlock = false
		case inBlock && strings.HasPrefix(line, header):
			name = strings.TrimPrefix(line, header)
		case inBlock && name != "":
			units[name] += line + "\n"
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return units
}

// TestDocumentedSystemdUnits checks the units of docs/operations.md with
// `systemd-analyze verify`: they must parse, and systemd must know every
// option and accept every value (it only warns about those, so any word
// it says fails the test). A drop-in (satranc.service.d/tls.conf) is read
// with its unit from the folder beside it. The binary's path is this
// test's executable, since verify also checks that ExecStart's program
// exists.
func TestDocumentedSystemdUnits(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("SATRANC_TEST_NO_SKIP") == "1" {
			t.Fatal("systemd-analyze is not installed")
		}
		t.Skip("systemd-analyze is not installed")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	units := documentedUnits(t)
	for _, want := range []string{"satranc.service", "satranc.service.d/tls.conf", "satranc-backup.service", "satranc-backup.timer"} {
		if units[want] == "" {
			t.Fatalf("docs/operations.md gives no %s (units found: %v)", want, len(units))
		}
	}
	dir := t.TempDir()
	var paths []string
	for name, text := range units {
		text = strings.ReplaceAll(text, "/usr/local/bin/satranc", self)
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(name, ".d/") {
			// Not a unit: verify reads it with its unit.
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	cmd := exec.Command(analyze, append([]string{"verify"}, paths...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
