package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"satranc/handlers/loadtest"
)

// TestLoadtestDrivesGames runs the load driver against the real server:
// three games for five seconds make moves, every move reaches the opponent's
// stream, and nothing fails.
func TestLoadtestDrivesGames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildSatranc(t, dir)
	debug := freeAddr(t)
	srv := startServer(t, bin, freeAddr(t), filepath.Join(dir, "load.db"), "--debug-addr", debug)

	var out bytes.Buffer
	cfg := loadtest.Config{Base: srv.base, Debug: "http://" + debug, Games: 3, Duration: 5 * time.Second, Think: 200 * time.Millisecond,
		Every: 2 * time.Second, Linger: time.Second, Ramp: time.Second, Seed: 1, MaxPly: 120, Setup: 4}
	res, err := loadtest.Run(context.Background(), cfg, &out)
	t.Logf("loadtest output:\n%s", out.String())
	if err != nil {
		t.Fatal(err)
	}
	if res.Moves == 0 || len(res.Latencies) == 0 {
		t.Errorf("no moves measured: %d moves, %d latencies", res.Moves, len(res.Latencies))
	}
	if n := res.ErrorCount(); n != 0 {
		t.Errorf("%d errors: %v", n, res.Errors)
	}
	if len(res.Samples) == 0 || res.Samples[len(res.Samples)-1].Err != nil || res.Samples[len(res.Samples)-1].Goroutines == 0 {
		t.Errorf("server metrics not read: %+v", res.Samples)
	}
	if !strings.Contains(out.String(), "after a collection: live heap before ") {
		t.Error("no live heap comparison with --debug")
	}

	// The command line form checks its flags.
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"loadtest", "--games", "0"}, nil, &out, &stderr); code != 2 {
		t.Errorf("loadtest --games 0 = exit %d, want 2 (%s)", code, stderr.String())
	}
	if code := run(context.Background(), []string{"loadtest", "--duration", "10s", "--ramp", "10s"}, nil, &out, &stderr); code != 2 {
		t.Errorf("loadtest --ramp as long as --duration = exit %d, want 2 (%s)", code, stderr.String())
	}
	if code := run(context.Background(), []string{"loadtest", "--duration", "10s", "--warmup", "10s"}, nil, &out, &stderr); code != 2 {
		t.Errorf("loadtest --warmup as long as --duration = exit %d, want 2 (%s)", code, stderr.String())
	}
}
