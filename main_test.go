package main

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
)

func TestRunUsage(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		wantStderr string
		wantStdout string
	}{
		{"no command", nil, 2, "Usage:", ""},
		{"unknown command", []string{"dance"}, 2, `unknown command "dance"`, ""},
		{"uci bad level", []string{"uci", "--level", "grandmaster"}, 2, "--level must be", ""},
		{"admin without arguments", []string{"admin", "vip"}, 2, "Usage: satranc admin", ""},
		{"help", []string{"help"}, 0, "", "Usage:"},
		{"version", []string{"version"}, 0, "", "satranc "},
		{"serve bad flag", []string{"serve", "--nope"}, 2, "flag provided but not defined", ""},
		{"serve extra argument", []string{"serve", "extra"}, 2, `unexpected argument "extra"`, ""},
		{"serve help", []string{"serve", "-h"}, 0, "-addr", ""},
		{"serve bad time zone", []string{"serve", "--time-zone", "Mars/Olympus"}, 2, "not an IANA time zone", ""},
		{"serve local time zone", []string{"serve", "--time-zone", "Local"}, 2, "not an IANA time zone", ""},
		{"serve missing prize file", []string{"serve", "--prizes", "no-such-prizes.json"}, 2, "--prizes: open no-such-prizes.json", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("run(%q) = %d, want %d; stderr:\n%s", tc.args, code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.wantStderr) {
				t.Errorf("run(%q) stderr = %q, want it to contain %q", tc.args, stderr.String(), tc.wantStderr)
			}
			if !strings.Contains(stdout.String(), tc.wantStdout) {
				t.Errorf("run(%q) stdout = %q, want it to contain %q", tc.args, stdout.String(), tc.wantStdout)
			}
		})
	}
}

func TestServeBadDatabasePath(t *testing.T) {
	var stdout, stderr bytes.Buffer
	path := filepath.Join(t.TempDir(), "missing", "x.db")
	code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--db", path}, nil, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "store: open") {
		t.Errorf("serve with a bad --db = %d, stderr %q; want 1 and a store error", code, stderr.String())
	}
}

func TestServeEnvironment(t *testing.T) {
	// SATRANC_ADDR and SATRANC_DB give the defaults; an unusable address
	// proves the value was read without starting a server.
	t.Setenv("SATRANC_ADDR", "127.0.0.1:99999")
	t.Setenv("SATRANC_DB", filepath.Join(t.TempDir(), "env.db"))
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"serve"}, nil, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "99999") {
		t.Errorf("serve with SATRANC_ADDR = %d, stderr %q", code, stderr.String())
	}
	if _, err := os.Stat(os.Getenv("SATRANC_DB")); err != nil {
		t.Errorf("SATRANC_DB not used: %v", err)
	}
}

// TestServeProcess builds the real binary, starts `serve` in a folder that
// holds nothing but the binary (templates, static files, locales and
// migrations are all embedded), uses it (its rules page tells the
// --disconnect-grace it was given), and stops it with SIGTERM, as an
// operator would.
func TestServeProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "satranc")
	build := exec.Command(goBin, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	addr := freeAddr(t)
	dbPath := filepath.Join(dir, "x.db")
	var logs bytes.Buffer
	cmd := exec.Command(bin, "serve", "--addr", addr, "--db", "x.db", "--disconnect-grace", "90s")
	cmd.Dir = dir // only the binary is there
	cmd.Stdout = &logs
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stopped := false
	defer func() {
		if !stopped {
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server output:\n%s", logs.String())
		}
	}()

	base := "http://" + addr
	client := &http.Client{Timeout: 5 * time.Second}
	waitHealthy(t, client, base+"/healthz", done)

	resp, err := client.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET / = %d", resp.StatusCode)
	}
	// A guest's home page offers every time control of Quick Play.
	if n := strings.Count(string(body), `class="quick-button"`); n != 7 {
		t.Errorf("home page has %d Quick Play buttons, want 7", n)
	}
	for _, path := range []string{"/static/js/htmx.min.js", "/static/js/board.js", "/rules?lang=tr"} {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || len(body) < 1000 {
			t.Errorf("GET %s = %d with %d bytes, want the embedded file or page", path, resp.StatusCode, len(body))
		}
		if strings.HasPrefix(path, "/rules") && !strings.Contains(string(body), "geri dönmek için 90 saniyeniz") {
			t.Errorf("GET %s does not tell the server's --disconnect-grace of 90 seconds", path)
		}
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		stopped = true
		if err != nil {
			t.Errorf("server exit after SIGTERM: %v, want a clean exit", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("server did not stop within 15s of SIGTERM")
	}
	if !strings.Contains(logs.String(), "stopped") {
		t.Errorf("server did not log a graceful stop")
	}

	db, err := sql.Open("sqlite3", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil {
		t.Fatalf("database %s has no migrations table: %v", dbPath, err)
	}
	if n < 1 {
		t.Errorf("schema_migrations has %d rows, want at least 1", n)
	}
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return "127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// waitHealthy polls url until it answers 200, the process exits, or 30s pass.
func waitHealthy(t *testing.T, client *http.Client, url string, exited <-chan error) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			t.Fatalf("server exited early: %v", err)
		default:
		}
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s not healthy within 30s", url)
}
