package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Config is what a run plays and how it reports.
type Config struct {
	// Base is the server's URL, such as http://127.0.0.1:8080; without a
	// scheme, http is assumed.
	Base     string
	Games    int           // concurrent games, two users and two streams each
	Duration time.Duration // how long the games are played, after set-up
	Think    time.Duration // mean pause before each move (jittered ±50%)
	Every    time.Duration // progress report interval
	Seed     uint64        // seed of the move choices
	MaxPly   int           // a game longer than this is resigned and replaced
	Setup    int           // concurrent sign-ups and game creations
	// Sessions is a file keeping the users between runs; "" for none.
	Sessions string
	// Linger is how long the server is watched after the games end.
	Linger time.Duration
	// Ramp spreads the games' starts over its length, as players arriving
	// one after another would; 0 starts them all at once. It counts in
	// Duration. Each pair creates its first game when its turn comes,
	// Setup at a time (with Spectators, who watch games that exist before
	// play, the set-up creates them all): a game created long before its
	// first move would be ended by the site's first-move limit.
	Ramp time.Duration
	// Warmup is the start of play whose moves are reported apart from the
	// rest, the steady state (moves sent from Warmup on); 0 reports the
	// whole run only. It counts in Duration.
	Warmup time.Duration
	// Spectators is how many idle spectator streams to open before play.
	Spectators int
	// Flood is how many event streams one member opens at once, from
	// FloodAddresses client addresses (flood.go), once the games are set
	// up; 0 for none.
	Flood, FloodAddresses int
	// Debug is the server's --debug-addr URL, used to collect its garbage
	// before the memory samples that compare live memory; "" for none.
	Debug string
	// H2C speaks HTTP/2 without TLS to the server (serve --h2c), as a
	// reverse proxy does: the users' requests and streams share a few
	// connections instead of holding one each.
	H2C bool
}

// ErrInvalidConfig is wrapped by the error of a Config that cannot run.
var ErrInvalidConfig = errors.New("loadtest: invalid configuration")

// Validate reports whether c can run: Games, Duration, Every, MaxPly and
// Setup positive, Think, Linger, Ramp, Warmup and Spectators not negative,
// and Ramp and Warmup shorter than Duration.
func (c Config) Validate() error {
	switch {
	case c.Games < 1, c.Duration <= 0, c.Every <= 0, c.MaxPly < 1, c.Setup < 1:
		return fmt.Errorf("%w: games, duration, every, max ply and setup must be positive", ErrInvalidConfig)
	case c.Think < 0, c.Linger < 0, c.Ramp < 0, c.Warmup < 0, c.Spectators < 0, c.Flood < 0, c.FloodAddresses < 0:
		return fmt.Errorf("%w: think, linger, ramp, warm-up, spectators and flood must not be negative", ErrInvalidConfig)
	case c.Ramp >= c.Duration:
		return fmt.Errorf("%w: ramp %v is not shorter than duration %v", ErrInvalidConfig, c.Ramp, c.Duration)
	case c.Warmup >= c.Duration:
		return fmt.Errorf("%w: warm-up %v is not shorter than duration %v", ErrInvalidConfig, c.Warmup, c.Duration)
	}
	return nil
}

// withScheme returns u with http:// when it names no scheme, and no
// trailing slash, so that paths can be appended to it.
func withScheme(u string) string {
	if u != "" && !strings.Contains(u, "://") {
		u = "http://" + u
	}
	return strings.TrimSuffix(u, "/")
}

// Result is what a run measured.
type Result struct {
	Games     int             // concurrent games, as configured
	Moves     int64           // moves the server acknowledged
	Elapsed   time.Duration   // of the play phase
	Latencies []time.Duration // POST to the opponent's event, sorted
	// Steady holds the latencies of the moves sent after Config.Warmup,
	// sorted; nil without a warm-up.
	Steady []time.Duration
	// Errors counts the failed requests and missing events by kind, such
	// as "move-500", "create-timeout" or "no-opponent-event".
	Errors  map[string]int64
	Samples []Sample // the server's, in the order they were taken
}

// ErrorCount returns the number of errors of every kind.
func (r *Result) ErrorCount() int64 { return sumErrors(r.Errors) }

// Run signs up the users, creates the games, plays them for cfg.Duration
// and reports to out as it goes and at the end. Failures of single
// requests are counted in the Result's Errors, not returned: the error is
// for a run that could not take place (an invalid Config, an unreadable
// sessions file, ctx done during the set-up).
func Run(ctx context.Context, cfg Config, out io.Writer) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Base, cfg.Debug = withScheme(cfg.Base), withScheme(cfg.Debug)
	both := newTransports(cfg)
	defer both.closeIdle()
	metricsClient := &http.Client{Transport: both.requests, Timeout: 10 * time.Second}
	st := newStats()
	var samples []Sample
	sample := func(label string) Sample {
		m := readMetrics(ctx, metricsClient, cfg.Base+"/metrics")
		m.Label = label
		samples = append(samples, m)
		return m
	}
	fmt.Fprintf(out, "loadtest %s: %d games, %d users, %d event streams, think %v, %v, ramp %v, warm-up %v\n",
		cfg.Base, cfg.Games, 2*cfg.Games, 2*cfg.Games, cfg.Think, cfg.Duration, cfg.Ramp, cfg.Warmup)
	// With Debug, the server collects its garbage before the first and the
	// last sample, so that those two compare live memory: whatever the
	// games leave behind.
	liveSample := func(label string) Sample {
		if cfg.Debug != "" {
			// Twice: a sync.Pool (the server's render buffers) keeps
			// its objects through one collection.
			collectGarbage(ctx, cfg.Debug)
			collectGarbage(ctx, cfg.Debug)
		}
		return sample(label)
	}
	before := liveSample("before")
	fmt.Fprintf(out, "before: %s\n", before)

	// Set-up: sign up two users per game, a few at a time, and then seat
	// them: a game's clock starts when it does, so no game waits for the
	// slow sign-ups (password hashing) of the others.
	setupStart := time.Now()
	// Each run's user names differ, so that runs against one database
	// without a sessions file do not collide.
	run := strconv.FormatInt(time.Now().Unix()%(36*36*36*36*36), 36)
	users := make([][2]*user, cfg.Games)
	pairs := make([]*pair, cfg.Games)
	sem := make(chan struct{}, cfg.Setup)
	each := func(step func(i int)) {
		var wg sync.WaitGroup
		for i := range cfg.Games {
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
	saved, err := readSessions(cfg.Sessions, cfg.Base, both)
	if err != nil {
		return nil, err
	}
	if len(saved) > 0 && len(saved) < 2*cfg.Games {
		return nil, fmt.Errorf("%s keeps %d users; %d games need %d", cfg.Sessions, len(saved), cfg.Games, 2*cfg.Games)
	}
	each(func(i int) {
		if len(saved) > 0 {
			users[i] = [2]*user{saved[2*i], saved[2*i+1]}
			return
		}
		for side, suffix := range []string{"a", "b"} {
			u, err := signUp(ctx, both, cfg.Base, fmt.Sprintf("lt%s_%d%s", run, i, suffix))
			if err != nil {
				st.fail(errorKind(err, "signup"))
				return
			}
			users[i][side] = u
		}
	})
	signedUp := time.Since(setupStart)
	if cfg.Sessions != "" && len(saved) == 0 {
		var all []*user
		for _, two := range users {
			all = append(all, two[0], two[1])
		}
		if err := writeSessions(cfg.Sessions, cfg.Base, all); err != nil {
			return nil, err
		}
	}
	// With a ramp, each pair creates its first game when its turn comes
	// (playPair); spectators need the games before play.
	createLater := cfg.Ramp > 0 && cfg.Spectators == 0
	each(func(i int) {
		if users[i][1] == nil {
			return
		}
		if createLater {
			pairs[i] = &pair{white: users[i][0], black: users[i][1]}
			return
		}
		p, err := newPrivateGame(ctx, users[i][0], users[i][1])
		if err != nil {
			st.fail(errorKind(err, "create"))
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
	if cfg.Spectators > 0 {
		closeAll, err := openSpectators(ctx, cfg, both, run, pairs, st, out)
		if err != nil {
			return nil, err
		}
		var once sync.Once
		closeSpectators = func() { once.Do(closeAll) }
		defer closeSpectators()
	}

	if cfg.Flood > 0 {
		closeFlood, err := flood(ctx, cfg, both, run, out)
		if err != nil {
			return nil, err
		}
		defer closeFlood()
		fmt.Fprintf(out, "with the flood's streams open: %s\n", sample("flood"))
	}

	// Play.
	playCtx, stop := context.WithTimeout(ctx, cfg.Duration)
	defer stop()
	start := time.Now()
	if cfg.Warmup > 0 {
		st.setWarmUntil(start.Add(cfg.Warmup))
	}
	var games sync.WaitGroup
	creating := make(chan struct{}, cfg.Setup) // first games created at once (playPair)
	for i, p := range pairs {
		if p == nil {
			continue
		}
		games.Go(func() {
			if cfg.Ramp > 0 {
				select {
				case <-playCtx.Done():
					p.endUnplayed(playCtx)
					return
				case <-time.After(cfg.Ramp * time.Duration(i) / time.Duration(len(pairs))):
				}
			}
			playPair(playCtx, cfg, rand.New(rand.NewPCG(cfg.Seed, uint64(i))), p, st, creating)
		})
	}
	ticker := time.NewTicker(cfg.Every)
	lastMoves, lastAt := int64(0), start
	for done := false; !done; {
		select {
		case <-playCtx.Done():
			done = true
		case now := <-ticker.C:
			m := sample(fmt.Sprintf("t=%ds", int(now.Sub(start).Seconds()+0.5)))
			moves := st.moves.Load()
			window := st.takeWindow()
			all, _, _ := st.run()
			fmt.Fprintf(out, "%s moves=%d moves/s=%.1f %s errors=%d %s; last %v: %s\n", m.Label, moves,
				float64(moves-lastMoves)/now.Sub(lastAt).Seconds(), latencySummary(all), sumErrors(st.errorCounts()), m,
				now.Sub(lastAt).Round(time.Second), latencySummary(window))
			lastMoves, lastAt = moves, now
		}
	}
	ticker.Stop()
	elapsed := time.Since(start)
	games.Wait()
	closeSpectators()
	// Idle keep-alive connections would count as the server's goroutines.
	both.closeIdle()
	end := sample("end")
	after := linger(ctx, cfg, sample, liveSample, out)

	st.takeWindow() // the moves since the last report
	lat, warm, steady := st.run()
	errs := st.errorCounts()
	res := &Result{Games: cfg.Games, Moves: st.moves.Load(), Elapsed: elapsed, Latencies: lat, Errors: errs, Samples: samples}
	if cfg.Warmup > 0 {
		res.Steady = steady
	}
	fmt.Fprintf(out, "\nresult: %d games, %d streams, %d moves in %v = %.1f moves/s\n",
		cfg.Games, 2*cfg.Games, res.Moves, elapsed.Round(time.Millisecond), float64(res.Moves)/elapsed.Seconds())
	fmt.Fprintf(out, "latency POST→opponent event: %s\n", latencySummary(lat))
	if cfg.Warmup > 0 {
		fmt.Fprintf(out, "warm-up (moves sent before t=%v): %d moves, %s\n", cfg.Warmup, len(warm), latencySummary(warm))
		fmt.Fprintf(out, "steady state (moves sent from t=%v on): %d moves = %.1f moves/s, %s\n", cfg.Warmup,
			len(steady), float64(len(steady))/max(elapsed-cfg.Warmup, time.Second).Seconds(), latencySummary(steady))
	}
	fmt.Fprintf(out, "bytes per move event per stream (uncompressed, a stream's first whole panel left out): %s\n", st.bytesSummary())
	fmt.Fprintf(out, "errors: %d %v; games lost on time (not errors): %d\n", sumErrors(errs), errs, st.flagged.Load())
	fmt.Fprintf(out, "server at the end: %s\nserver %s later: %s\n", end, cfg.Linger, after)
	if cfg.Debug != "" {
		fmt.Fprintf(out, "after a collection: live heap before %.1fMB, %s later %.1fMB (spans in use %.1fMB, %.1fMB); goroutines %.0f, %.0f\n",
			before.HeapAlloc/1e6, cfg.Linger, after.HeapAlloc/1e6, before.HeapInuse/1e6, after.HeapInuse/1e6, before.Goroutines, after.Goroutines)
	}
	peak := Sample{}
	for _, s := range samples {
		peak.RSS, peak.HeapInuse, peak.Goroutines = max(peak.RSS, s.RSS), max(peak.HeapInuse, s.HeapInuse), max(peak.Goroutines, s.Goroutines)
	}
	fmt.Fprintf(out, "server peak: %s\n", peak)
	return res, nil
}

// linger samples the server every cfg.Every for cfg.Linger after the games
// are resigned and their streams closed, to watch it let go of them; the
// last sample is taken after a collection (liveSample) and returned. It
// stops early when ctx is done.
func linger(ctx context.Context, cfg Config, sample, liveSample func(label string) Sample, out io.Writer) Sample {
	start := time.Now()
	var after Sample
	for {
		wait := min(cfg.Every, cfg.Linger-time.Since(start))
		if wait <= 0 {
			break
		}
		select {
		case <-ctx.Done():
			return after
		case <-time.After(wait):
		}
		label := fmt.Sprintf("after+%ds", int(time.Since(start).Seconds()+0.5))
		if cfg.Linger-time.Since(start) <= 0 {
			after = liveSample(label)
		} else {
			after = sample(label)
		}
		if cfg.Linger > cfg.Every {
			fmt.Fprintf(out, "%s %s\n", after.Label, after)
		}
	}
	return after
}
