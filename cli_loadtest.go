package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"satranc/engine/chess"
)

// loadConfig is the configuration of the loadtest command.
type loadConfig struct {
	base     string        // server URL, such as http://127.0.0.1:8080
	games    int           // concurrent games
	duration time.Duration // how long the games are played, after set-up
	think    time.Duration // mean pause before each move (jittered ±50%)
	every    time.Duration // progress report interval
	seed     uint64        // seed of the move choices
	maxPly   int           // a game longer than this is resigned and replaced
	setup    int           // concurrent sign-ups and game creations
	// sessions is a file keeping the users between runs; "" for none.
	sessions string
	// linger is how long the server is watched after the games end.
	linger time.Duration
	// ramp spreads the games' first moves and streams over its length, as
	// players arriving one after another would; 0 starts them all at once.
	ramp time.Duration
	// spectators is how many idle spectator streams to open before play.
	spectators int
	// debug is the server's --debug-addr URL, used to collect its garbage
	// before the spectators' memory is measured; "" for none.
	debug string
}

// runLoadtest parses the loadtest flags and drives the load against a
// running server.
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
	var cfg loadConfig
	fs.StringVar(&cfg.base, "addr", "http://127.0.0.1:8080", "server `URL`")
	fs.IntVar(&cfg.games, "games", 10, "concurrent games (two users and two event streams each)")
	fs.DurationVar(&cfg.duration, "duration", time.Minute, "how long to play, after the set-up")
	fs.DurationVar(&cfg.think, "think", time.Second, "mean pause before each move, jittered ±50%")
	fs.DurationVar(&cfg.every, "every", 10*time.Second, "progress report interval")
	fs.DurationVar(&cfg.ramp, "ramp", 0, "spread the games' starts (their streams and first moves) evenly over this time, which counts in --duration; 0 starts them all at once")
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of the move choices")
	fs.IntVar(&cfg.maxPly, "max-ply", 120, "resign a game after at most this many half-moves (each game draws its length between half of it and it) and start another")
	fs.IntVar(&cfg.setup, "setup-concurrency", 4, "concurrent sign-ups and game creations")
	fs.StringVar(&cfg.sessions, "sessions", "", "`file` of the users' session cookies: read when it exists (no sign-ups), written after the sign-ups otherwise; for runs against the same database")
	fs.DurationVar(&cfg.linger, "linger", 2*time.Second, "how long to keep sampling the server's memory and goroutines (every --every) after the games end")
	fs.IntVar(&cfg.spectators, "spectators", 0, "idle spectator streams to open across the games before play, reporting the server's memory per stream")
	fs.StringVar(&cfg.debug, "debug", "", "the server's --debug-addr `URL` (such as http://127.0.0.1:6060), to have it collect garbage before the first and the last memory sample and each measurement of --spectators")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if cfg.games < 1 || cfg.duration <= 0 || cfg.think < 0 || cfg.linger < 0 || cfg.ramp < 0 || cfg.ramp >= cfg.duration || cfg.every <= 0 || cfg.maxPly < 1 || cfg.setup < 1 || cfg.spectators < 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "satranc loadtest: --games, --duration, --every, --max-ply and --setup-concurrency must be positive, --think, --linger and --spectators not negative, and no arguments")
		return 2
	}
	if !strings.Contains(cfg.base, "://") {
		cfg.base = "http://" + cfg.base
	}
	cfg.base = strings.TrimSuffix(cfg.base, "/")
	if cfg.debug != "" && !strings.Contains(cfg.debug, "://") {
		cfg.debug = "http://" + cfg.debug
	}
	cfg.debug = strings.TrimSuffix(cfg.debug, "/")
	res, err := runLoad(ctx, cfg, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "satranc loadtest: %v\n", err)
		return 1
	}
	if res.errorCount() > 0 {
		return 1
	}
	return 0
}

// loadResult is what a load run measured.
type loadResult struct {
	Games     int
	Moves     int64
	Elapsed   time.Duration // of the play phase
	Latencies []time.Duration
	Errors    map[string]int64
	Samples   []metricsSample
}

func (r *loadResult) errorCount() int64 { return sumErrors(r.Errors) }

// loadStats collects the measurements of a run from every game.
type loadStats struct {
	moves     atomic.Int64
	flagged   atomic.Int64 // games the server ended first (a flag): not errors
	mu        sync.Mutex
	latencies []time.Duration
	errors    map[string]int64
}

func (s *loadStats) fail(kind string) {
	s.mu.Lock()
	s.errors[kind]++
	s.mu.Unlock()
}

func (s *loadStats) moved(latency time.Duration) {
	s.moves.Add(1)
	s.mu.Lock()
	s.latencies = append(s.latencies, latency)
	s.mu.Unlock()
}

// snapshot returns a sorted copy of the latencies and a copy of the errors.
func (s *loadStats) snapshot() ([]time.Duration, map[string]int64) {
	s.mu.Lock()
	lat := slices.Clone(s.latencies)
	errs := make(map[string]int64, len(s.errors))
	for k, v := range s.errors {
		errs[k] = v
	}
	s.mu.Unlock()
	slices.Sort(lat)
	return lat, errs
}

// runLoad signs up the users, creates the games, plays them for
// cfg.duration and reports to out as it goes and at the end.
func runLoad(ctx context.Context, cfg loadConfig, out io.Writer) (*loadResult, error) {
	tr := &http.Transport{
		MaxIdleConns:        4*cfg.games + 64,
		MaxIdleConnsPerHost: 4*cfg.games + 64,
		IdleConnTimeout:     90 * time.Second,
	}
	defer tr.CloseIdleConnections()
	metricsClient := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	stats := &loadStats{errors: map[string]int64{}}
	var samples []metricsSample
	sample := func(label string) metricsSample {
		m := readMetrics(ctx, metricsClient, cfg.base+"/metrics")
		m.Label = label
		samples = append(samples, m)
		return m
	}
	fmt.Fprintf(out, "loadtest %s: %d games, %d users, %d event streams, think %v, %v, ramp %v\n",
		cfg.base, cfg.games, 2*cfg.games, 2*cfg.games, cfg.think, cfg.duration, cfg.ramp)
	// With --debug, the server collects its garbage before the first and
	// the last sample, so that those two compare live memory: whatever the
	// games leave behind.
	liveSample := func(label string) metricsSample {
		if cfg.debug != "" {
			// Twice: a sync.Pool (the server's render buffers) keeps
			// its objects through one collection.
			collectGarbage(ctx, metricsClient, cfg.debug)
			collectGarbage(ctx, metricsClient, cfg.debug)
		}
		return sample(label)
	}
	before := liveSample("before")
	fmt.Fprintf(out, "before: %s\n", before)

	// Set-up: sign up two users per game, a few at a time, and then seat
	// them: a game's clock starts when it does, so no game waits for the
	// slow sign-ups (password hashing) of the others.
	setupStart := time.Now()
	run := strconv.FormatInt(time.Now().Unix()%(36*36*36*36*36), 36)
	users := make([][2]*loadUser, cfg.games)
	pairs := make([]*loadPair, cfg.games)
	sem := make(chan struct{}, cfg.setup)
	each := func(step func(i int)) {
		var wg sync.WaitGroup
		for i := range cfg.games {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				if ctx.Err() == nil {
					step(i)
				}
			})
		}
		wg.Wait()
	}
	saved, err := readLoadSessions(cfg.sessions, cfg.base, tr)
	if err != nil {
		return nil, err
	}
	if len(saved) > 0 && len(saved) < 2*cfg.games {
		return nil, fmt.Errorf("%s keeps %d users; %d games need %d", cfg.sessions, len(saved), cfg.games, 2*cfg.games)
	}
	each(func(i int) {
		if len(saved) > 0 {
			users[i] = [2]*loadUser{saved[2*i], saved[2*i+1]}
			return
		}
		for side, suffix := range []string{"a", "b"} {
			u, err := signUpLoadUser(ctx, tr, cfg.base, fmt.Sprintf("lt%s_%d%s", run, i, suffix))
			if err != nil {
				stats.fail(errorKind(err, "signup"))
				return
			}
			users[i][side] = u
		}
	})
	signedUp := time.Since(setupStart)
	if cfg.sessions != "" && len(saved) == 0 {
		var all []*loadUser
		for _, pair := range users {
			all = append(all, pair[0], pair[1])
		}
		if err := writeLoadSessions(cfg.sessions, cfg.base, all); err != nil {
			return nil, err
		}
	}
	each(func(i int) {
		if users[i][1] == nil {
			return
		}
		p, err := newPrivateGame(ctx, users[i][0], users[i][1])
		if err != nil {
			stats.fail(errorKind(err, "create"))
			return
		}
		pairs[i] = &p
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("set-up: %w", err)
	}
	fmt.Fprintf(out, "sign-ups: %v, games: %v\n", signedUp.Round(time.Millisecond), (time.Since(setupStart) - signedUp).Round(time.Millisecond))
	fmt.Fprintf(out, "set-up: %v; after set-up: %s\n", time.Since(setupStart).Round(time.Millisecond), sample("set-up"))
	closeSpectators := func() {}
	if cfg.spectators > 0 {
		closeAll, err := openSpectators(ctx, cfg, tr, run, pairs, stats, out)
		if err != nil {
			return nil, err
		}
		var once sync.Once
		closeSpectators = func() { once.Do(closeAll) }
		defer closeSpectators()
	}

	// Play.
	playCtx, stop := context.WithTimeout(ctx, cfg.duration)
	defer stop()
	start := time.Now()
	var games sync.WaitGroup
	for i, p := range pairs {
		if p == nil {
			continue
		}
		games.Go(func() {
			if cfg.ramp > 0 {
				select {
				case <-playCtx.Done():
					return
				case <-time.After(cfg.ramp * time.Duration(i) / time.Duration(len(pairs))):
				}
			}
			playPair(playCtx, cfg, rand.New(rand.NewPCG(cfg.seed, uint64(i))), p, stats)
		})
	}
	ticker := time.NewTicker(cfg.every)
	lastMoves, lastAt := int64(0), start
	for done := false; !done; {
		select {
		case <-playCtx.Done():
			done = true
		case now := <-ticker.C:
			m := sample(fmt.Sprintf("t=%ds", int(now.Sub(start).Seconds()+0.5)))
			moves := stats.moves.Load()
			lat, errs := stats.snapshot()
			fmt.Fprintf(out, "%s moves=%d moves/s=%.1f %s errors=%d %s\n", m.Label, moves,
				float64(moves-lastMoves)/now.Sub(lastAt).Seconds(), latencySummary(lat), sumErrors(errs), m)
			lastMoves, lastAt = moves, now
		}
	}
	ticker.Stop()
	elapsed := time.Since(start)
	games.Wait()
	closeSpectators()
	// Idle keep-alive connections would count as the server's goroutines.
	tr.CloseIdleConnections()
	end := sample("end")
	// The games are resigned and their streams closed: watch the server
	// let go of them.
	lingerStart := time.Now()
	var after metricsSample
	for {
		wait := min(cfg.every, cfg.linger-time.Since(lingerStart))
		if wait <= 0 {
			break
		}
		time.Sleep(wait)
		label := fmt.Sprintf("after+%ds", int(time.Since(lingerStart).Seconds()+0.5))
		if cfg.linger-time.Since(lingerStart) <= 0 {
			after = liveSample(label)
		} else {
			after = sample(label)
		}
		if cfg.linger > cfg.every {
			fmt.Fprintf(out, "%s %s\n", after.Label, after)
		}
	}

	lat, errs := stats.snapshot()
	res := &loadResult{Games: cfg.games, Moves: stats.moves.Load(), Elapsed: elapsed, Latencies: lat, Errors: errs, Samples: samples}
	fmt.Fprintf(out, "\nresult: %d games, %d streams, %d moves in %v = %.1f moves/s\n",
		cfg.games, 2*cfg.games, res.Moves, elapsed.Round(time.Millisecond), float64(res.Moves)/elapsed.Seconds())
	fmt.Fprintf(out, "latency POST→opponent event: %s\n", latencySummary(lat))
	fmt.Fprintf(out, "errors: %d %v; games lost on time (not errors): %d\n", sumErrors(errs), errs, stats.flagged.Load())
	fmt.Fprintf(out, "server at the end: %s\nserver %s later: %s\n", end, cfg.linger, after)
	if cfg.debug != "" {
		fmt.Fprintf(out, "after a collection: live heap before %.1fMB, %s later %.1fMB (spans in use %.1fMB, %.1fMB); goroutines %.0f, %.0f\n",
			before.HeapAlloc/1e6, cfg.linger, after.HeapAlloc/1e6, before.HeapInuse/1e6, after.HeapInuse/1e6, before.Goroutines, after.Goroutines)
	}
	peak := metricsSample{}
	for _, s := range samples {
		peak.RSS, peak.HeapInuse, peak.Goroutines = max(peak.RSS, s.RSS), max(peak.HeapInuse, s.HeapInuse), max(peak.Goroutines, s.Goroutines)
	}
	fmt.Fprintf(out, "server peak: %s\n", peak)
	return res, nil
}

// playPair plays games between the pair's users until ctx is done: each
// move after a jittered think, chosen at random among the legal ones, and
// timed from its POST to the opponent's stream event of the new ply.
func playPair(ctx context.Context, cfg loadConfig, rng *rand.Rand, p *loadPair, stats *loadStats) {
	pause := func(limit time.Duration) bool {
		d := min(cfg.think/2+time.Duration(rng.Int64N(int64(cfg.think)+1)), limit)
		select {
		case <-ctx.Done():
			return false
		case <-time.After(d):
			return true
		}
	}
	for ctx.Err() == nil {
		gameCtx, closeStreams := context.WithCancel(ctx)
		streams := [2]*gameStream{newGameStream(), newGameStream()}
		users := [2]*loadUser{p.white, p.black}
		var readers sync.WaitGroup
		for side := range 2 {
			readers.Go(func() { streams[side].run(gameCtx, users[side], p.path, stats.fail) })
		}
		ended := playGame(gameCtx, cfg, rng, p.path, users, streams, pause, stats)
		if ended && ctx.Err() == nil {
			users[0].resign(ctx, p.path)
		}
		if ctx.Err() != nil {
			// The run is over: leave no game running on the server.
			users[0].resign(context.WithoutCancel(ctx), p.path)
		}
		closeStreams()
		readers.Wait()
		if ctx.Err() != nil {
			return
		}
		next, err := newPrivateGame(ctx, p.white, p.black)
		if err != nil {
			if ctx.Err() == nil {
				stats.fail(errorKind(err, "create"))
			}
			return
		}
		*p = next
	}
}

// playGame plays one game until it ends, reaches its length (between half
// of cfg.maxPly and cfg.maxPly plies), fails, or ctx is done; it reports
// whether another game should start.
func playGame(ctx context.Context, cfg loadConfig, rng *rand.Rand, path string, users [2]*loadUser,
	streams [2]*gameStream, pause func(limit time.Duration) bool, stats *loadStats) bool {
	g := chess.NewGame(chess.StartPosition())
	// Both players' pages load before anyone moves, as in a browser.
	for side := range 2 {
		if _, err := streams[side].wait(ctx, 0, loadRequestTimeout); err != nil {
			if ctx.Err() == nil {
				stats.fail("first-event")
			}
			return true
		}
	}
	var buf [chess.MaxMoves]chess.Move
	// Each player watches their clock as a person does: a pause takes at
	// most a fifteenth of what is left (at the default pace, with
	// loadControl, it never comes to that).
	left := [2]time.Duration{loadInitial, loadInitial}
	turn := time.Now()
	// Games of different lengths: started together, they must not all end
	// (and be replaced) in the same minute either.
	plies := cfg.maxPly/2 + rng.IntN(cfg.maxPly-cfg.maxPly/2+1)
	for g.Termination() == chess.NoTermination && g.Ply() < plies {
		ply, side := g.Ply(), g.Ply()%2
		if !pause(max(left[side]-time.Since(turn), 0) / 15) {
			return false
		}
		pos := g.Position()
		legal := pos.AppendLegalMoves(buf[:0])
		m := legal[rng.IntN(len(legal))]
		sent := time.Now()
		err := users[side].move(ctx, path, m.String(), ply)
		left[side] += loadIncrement - time.Since(turn)
		turn = time.Now() // the opponent's clock runs from the answer on
		if err != nil {
			if se, ok := errors.AsType[*statusError](err); ok && se.status == http.StatusConflict {
				// The game is over: the mover's clock ran out (the
				// driver's reckoning of it missed the server's). Start
				// another.
				stats.flagged.Add(1)
				return true
			}
			if ctx.Err() == nil {
				stats.fail(errorKind(err, "move"))
				return true
			}
			return false
		}
		if err := g.Play(m); err != nil {
			stats.fail("local-move")
			return true
		}
		at, err := streams[1-side].wait(ctx, ply+1, loadRequestTimeout)
		if err != nil {
			if ctx.Err() == nil {
				stats.fail("no-opponent-event")
				return true
			}
			// The move was acknowledged; only its latency went unmeasured.
			stats.moves.Add(1)
			return false
		}
		stats.moved(at.Sub(sent))
	}
	return true
}

// latencySummary formats p50, p95, p99 and max of sorted latencies.
func latencySummary(sorted []time.Duration) string {
	if len(sorted) == 0 {
		return "p50=- p95=- p99=- max=-"
	}
	q := func(p float64) time.Duration { return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))] }
	r := func(d time.Duration) string { return d.Round(10 * time.Microsecond).String() }
	return fmt.Sprintf("p50=%s p95=%s p99=%s max=%s", r(q(.50)), r(q(.95)), r(q(.99)), r(sorted[len(sorted)-1]))
}

func sumErrors(errs map[string]int64) int64 {
	var n int64
	for _, c := range errs {
		n += c
	}
	return n
}

// metricsSample is the server's memory and goroutines at one moment, from
// its Prometheus /metrics; zero values are metrics it did not report.
type metricsSample struct {
	Label     string
	RSS       float64 // process_resident_memory_bytes
	HeapInuse float64 // go_memstats_heap_inuse_bytes
	// HeapAlloc counts the heap's objects, live or not yet collected:
	// right after a collection, the live ones only. HeapInuse also counts
	// the free room of every span holding an object.
	HeapAlloc  float64 // go_memstats_heap_alloc_bytes
	StackInuse float64 // go_memstats_stack_inuse_bytes
	Goroutines float64 // go_goroutines
	Streams    float64 // satranc_sse_streams
	Err        error
}

func (m metricsSample) String() string {
	if m.Err != nil {
		return "server metrics: " + m.Err.Error()
	}
	return fmt.Sprintf("rss=%.1fMB heap=%.1fMB goroutines=%.0f", m.RSS/1e6, m.HeapInuse/1e6, m.Goroutines)
}

// readMetrics fetches and parses the server's /metrics.
func readMetrics(ctx context.Context, c *http.Client, url string) metricsSample {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return metricsSample{Err: fmt.Errorf("metrics: %w", err)}
	}
	resp, err := c.Do(req)
	if err != nil {
		return metricsSample{Err: fmt.Errorf("metrics: %w", err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return metricsSample{Err: fmt.Errorf("metrics: HTTP %d", resp.StatusCode)}
	}
	var m metricsSample
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			continue
		}
		switch name {
		case "process_resident_memory_bytes":
			m.RSS = v
		case "go_memstats_heap_inuse_bytes":
			m.HeapInuse = v
		case "go_memstats_heap_alloc_bytes":
			m.HeapAlloc = v
		case "go_memstats_stack_inuse_bytes":
			m.StackInuse = v
		case "go_goroutines":
			m.Goroutines = v
		case "satranc_sse_streams":
			m.Streams = v
		}
	}
	if err := sc.Err(); err != nil {
		m.Err = fmt.Errorf("metrics: %w", err)
	}
	return m
}
