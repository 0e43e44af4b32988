package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"satranc/handlers/loadtest"
)

// runLoadtest parses the loadtest flags and drives the load against a
// running server (handlers/loadtest).
func runLoadtest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: satranc loadtest --addr URL [flags]

Drives N concurrent private games between simulated players through the
server's HTTP and SSE interface and reports moves/s, the latency from a
move's POST to the opponent's stream event of that ply, errors, and the
server's memory and goroutines (from its /metrics). It signs up 2N users
from one address, so start the server with a large --auth-burst, such as
  satranc serve --addr 127.0.0.1:8080 --db load.db --auth-burst 100000

Flags:
`)
		fs.PrintDefaults()
	}
	var cfg loadtest.Config
	fs.StringVar(&cfg.Base, "addr", "http://127.0.0.1:8080", "server `URL`")
	fs.IntVar(&cfg.Games, "games", 10, "concurrent games (two users and two event streams each)")
	fs.DurationVar(&cfg.Duration, "duration", time.Minute, "how long to play, after the set-up")
	fs.DurationVar(&cfg.Think, "think", time.Second, "mean pause before each move, jittered ±50%")
	fs.DurationVar(&cfg.Every, "every", 10*time.Second, "progress report interval")
	fs.DurationVar(&cfg.Ramp, "ramp", 0, "spread the games' starts (their streams and first moves) evenly over this time, which counts in --duration; 0 starts them all at once")
	fs.DurationVar(&cfg.Warmup, "warmup", 0, "report the moves sent during this first part of play (the games' start) apart from the rest, the steady state; it counts in --duration; 0 reports the whole run only")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the move choices")
	fs.IntVar(&cfg.MaxPly, "max-ply", 120, "resign a game after at most this many half-moves (each game draws its length between half of it and it) and start another")
	fs.IntVar(&cfg.Setup, "setup-concurrency", 4, "concurrent sign-ups and game creations")
	fs.StringVar(&cfg.Sessions, "sessions", "", "`file` of the users' session cookies: read when it exists (no sign-ups), written after the sign-ups otherwise; for runs against the same database")
	fs.DurationVar(&cfg.Linger, "linger", 2*time.Second, "how long to keep sampling the server's memory and goroutines (every --every) after the games end")
	fs.IntVar(&cfg.Spectators, "spectators", 0, "idle spectators to open across the games before play, each a game page and the stream it names, as a browser tab does, reporting the server's memory per stream")
	fs.IntVar(&cfg.Flood, "flood", 0, "event streams one member opens at once before play, as a script would, kept open during play; the server's caps refuse what passes them")
	fs.IntVar(&cfg.FloodAddresses, "flood-addresses", 1, "client addresses the --flood streams come from, in X-Forwarded-For (serve with --trusted-proxy 127.0.0.1)")
	fs.BoolVar(&cfg.H2C, "h2c", false, "speak HTTP/2 without TLS to a server run with --h2c, as a reverse proxy would: the streams share a few connections, so more of them fit under the open-file limits")
	cpuProfile := fs.String("cpuprofile", "", "write the driver's own CPU profile to `file` (go tool pprof), to see what the driver costs the machine it shares")
	fs.StringVar(&cfg.Debug, "debug", "", "the server's --debug-addr `URL` (such as http://127.0.0.1:6060), to have it collect garbage before the first and the last memory sample and each measurement of --spectators")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if cfg.Validate() != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "satranc loadtest: --games, --duration, --every, --max-ply and --setup-concurrency must be positive, --think, --linger, --ramp, --warmup, --spectators and --flood not negative, --ramp and --warmup shorter than --duration, and no arguments")
		return 2
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "satranc loadtest: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "satranc loadtest: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	res, err := loadtest.Run(ctx, cfg, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "satranc loadtest: %v\n", err)
		return 1
	}
	if res.ErrorCount() > 0 {
		return 1
	}
	return 0
}
