package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLatencySummary(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		var d []time.Duration
		for _, n := range ns {
			d = append(d, time.Duration(n)*time.Millisecond)
		}
		return d
	}
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Millisecond // 1ms..100ms
	}
	tests := []struct {
		name   string
		sorted []time.Duration
		want   string
	}{
		{"none", nil, "p50=- p95=- p99=- max=-"},
		{"one", ms(7), "p50=7ms p95=7ms p99=7ms max=7ms"},
		{"two", ms(1, 9), "p50=9ms p95=9ms p99=9ms max=9ms"},
		// Index ⌊p·n⌋: the 51st, 96th and 100th of a hundred.
		{"a hundred", hundred, "p50=51ms p95=96ms p99=100ms max=100ms"},
		{"rounded to 10µs", []time.Duration{1234567 * time.Nanosecond}, "p50=1.23ms p95=1.23ms p99=1.23ms max=1.23ms"},
	}
	for _, tc := range tests {
		if got := latencySummary(tc.sorted); got != tc.want {
			t.Errorf("%s: latencySummary = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestStats: concurrent games' counts all arrive, the run's latencies
// are sorted, and the copies handed out are not the counters' own.
func TestStats(t *testing.T) {
	st := newStats()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				st.moved(time.Now(), time.Duration(800-i*100-j)*time.Microsecond)
				if j%10 == 0 {
					st.fail(fmt.Sprintf("kind-%d", i%2))
				}
			}
		})
	}
	wg.Wait()
	st.takeWindow()
	lat, _, _ := st.run()
	errs := st.errorCounts()
	if st.moves.Load() != 800 || len(lat) != 800 {
		t.Fatalf("%d moves, %d latencies; want 800", st.moves.Load(), len(lat))
	}
	if !slices.IsSorted(lat) {
		t.Fatalf("latencies not sorted: %v", lat)
	}
	if errs["kind-0"] != 40 || errs["kind-1"] != 40 || sumErrors(errs) != 80 {
		t.Errorf("errors %v, want 40 of each kind", errs)
	}
	errs["kind-0"] = 0
	if again := st.errorCounts(); again["kind-0"] != 40 {
		t.Error("the errors handed out are the counters' own")
	}
	res := Result{Errors: errs}
	if res.ErrorCount() != 40 {
		t.Errorf("ErrorCount = %d, want 40", res.ErrorCount())
	}
}

// TestStatsFolds: windows taken one after the other add up to the whole
// run, sorted, and a run handed out does not change when more moves are
// folded in.
func TestStatsFolds(t *testing.T) {
	st := newStats()
	rng := rand.New(rand.NewPCG(1, 2))
	var want []time.Duration
	var early []time.Duration
	for window := range 20 {
		for range rng.IntN(300) {
			d := time.Duration(rng.IntN(1000)) * time.Microsecond
			st.moved(time.Now(), d)
			want = append(want, d)
		}
		if w := st.takeWindow(); !slices.IsSorted(w) {
			t.Fatalf("window %d not sorted", window)
		}
		if window == 10 {
			early, _, _ = st.run()
		}
	}
	earlyCopy := slices.Clone(early)
	all, _, _ := st.run()
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Fatalf("the run's %d latencies are not the %d moved, sorted", len(all), len(want))
	}
	if !slices.Equal(early, earlyCopy) {
		t.Error("a run handed out changed with a later fold")
	}
}

// TestSizeCounts: the sizes' summary ranks as latencySummary does.
func TestSizeCounts(t *testing.T) {
	c := sizeCounts{}
	if got := c.summary(); got != "none" {
		t.Errorf("empty: %q", got)
	}
	for size := 1; size <= 200; size++ { // sizes 1 to 200, once each
		c[size]++
	}
	c[5000] = 2
	// 202 events: the median is rank 101 (size 102), p99 rank 199 (size 200).
	if got, want := c.summary(), "202 events, median 102 B, p99 200 B, max 5000 B"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

func TestErrorKind(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&statusError{"move", 409}, "move-409"},
		{fmt.Errorf("join: %w", &statusError{"join", 404}), "join-404"},
		{fmt.Errorf("POST /moves: %w", context.DeadlineExceeded), "move-timeout"},
		{errors.New("connection reset"), "move"},
	}
	for _, tc := range tests {
		if got := errorKind(tc.err, "move"); got != tc.want {
			t.Errorf("errorKind(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

func TestParseMetrics(t *testing.T) {
	text := `# HELP go_goroutines Number of goroutines that currently exist.
# TYPE go_goroutines gauge
go_goroutines 1234
go_memstats_heap_alloc_bytes 2.5e+07
go_memstats_heap_inuse_bytes 3.1e+07
go_memstats_stack_inuse_bytes 4.096e+06
go_gc_duration_seconds{quantile="0.5"} 0.0001
process_resident_memory_bytes 1.2346e+08
satranc_sse_streams 20
satranc_sse_streams_total 99
go_goroutines_bad x
`
	m := parseMetrics(strings.NewReader(text))
	want := Sample{RSS: 1.2346e8, HeapInuse: 3.1e7, HeapAlloc: 2.5e7, StackInuse: 4.096e6, Goroutines: 1234, Streams: 20}
	if m != want {
		t.Errorf("parseMetrics = %+v, want %+v", m, want)
	}
	if got := m.String(); got != "rss=123.5MB heap=31.0MB goroutines=1234" {
		t.Errorf("String = %q", got)
	}
	if got := (Sample{Err: errors.New("metrics: HTTP 503")}).String(); got != "server metrics: metrics: HTTP 503" {
		t.Errorf("String of a failed sample = %q", got)
	}
}

func TestConfigValidate(t *testing.T) {
	ok := Config{Base: "127.0.0.1:8080", Games: 1, Duration: time.Minute, Every: time.Second, MaxPly: 1, Setup: 1}
	if err := ok.Validate(); err != nil {
		t.Fatalf("Validate(%+v) = %v", ok, err)
	}
	bad := map[string]func(*Config){
		"no games":              func(c *Config) { c.Games = 0 },
		"no duration":           func(c *Config) { c.Duration = 0 },
		"no report interval":    func(c *Config) { c.Every = 0 },
		"no plies":              func(c *Config) { c.MaxPly = 0 },
		"no set-up":             func(c *Config) { c.Setup = 0 },
		"negative think":        func(c *Config) { c.Think = -time.Second },
		"negative linger":       func(c *Config) { c.Linger = -time.Second },
		"negative ramp":         func(c *Config) { c.Ramp = -time.Second },
		"negative spectators":   func(c *Config) { c.Spectators = -1 },
		"ramp as long as play":  func(c *Config) { c.Ramp = c.Duration },
		"ramp longer than play": func(c *Config) { c.Ramp = 2 * c.Duration },
		"negative warm-up":      func(c *Config) { c.Warmup = -time.Second },
		"warm-up as long":       func(c *Config) { c.Warmup = c.Duration },
	}
	for name, change := range bad {
		c := ok
		change(&c)
		if err := c.Validate(); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%s: Validate = %v, want ErrInvalidConfig", name, err)
		}
		if _, err := Run(t.Context(), c, nil); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%s: Run = %v, want ErrInvalidConfig", name, err)
		}
	}
}

func TestWithScheme(t *testing.T) {
	tests := []struct{ in, want string }{
		{"127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080"},
		{"https://satranc.example", "https://satranc.example"},
		{"", ""}, // no --debug
	}
	for _, tc := range tests {
		if got := withScheme(tc.in); got != tc.want {
			t.Errorf("withScheme(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestStatsPhases: with a warm-up, each move counts in the phase it was
// sent in, and the window holds the moves since it was last taken.
func TestStatsPhases(t *testing.T) {
	st := newStats()
	t0 := time.Now()
	st.moved(t0, time.Second) // before the warm-up is set: the whole run only
	st.setWarmUntil(t0.Add(time.Minute))
	st.moved(t0.Add(time.Second), 3*time.Millisecond)
	st.moved(t0.Add(time.Second), time.Millisecond)
	if w := st.takeWindow(); len(w) != 3 || w[0] != time.Millisecond || w[2] != time.Second {
		t.Errorf("window %v, want the three moves, sorted", w)
	}
	st.moved(t0.Add(time.Minute), 2*time.Millisecond)
	st.moved(t0.Add(2*time.Minute), 5*time.Millisecond)
	if w := st.takeWindow(); len(w) != 2 {
		t.Errorf("window %v, want the two moves since the last", w)
	}
	_, warm, steady := st.run()
	if len(warm) != 2 || warm[0] != time.Millisecond || warm[1] != 3*time.Millisecond {
		t.Errorf("warm-up %v, want 1ms and 3ms", warm)
	}
	if len(steady) != 2 || steady[0] != 2*time.Millisecond || steady[1] != 5*time.Millisecond {
		t.Errorf("steady state %v, want 2ms and 5ms (from the end of the warm-up on)", steady)
	}
	if all, _, _ := st.run(); len(all) != 5 {
		t.Errorf("whole run: %d moves, want 5", len(all))
	}
}

// BenchmarkProgressReport is one progress report ten minutes into a run
// at 5,000 games: 590,000 moves folded, 10,000 more in the last window.
// "fold" is what takeWindow does; "sort-all" sorts a copy of the whole
// run in the order the moves came, as each report once did.
func BenchmarkProgressReport(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	latency := func() time.Duration { return time.Duration(rng.ExpFloat64() * float64(3*time.Millisecond)) }
	folded := make([]time.Duration, 590_000)
	for i := range folded {
		folded[i] = latency()
	}
	slices.Sort(folded)
	window := make([]time.Duration, 10_000)
	for i := range window {
		window[i] = latency()
	}
	b.Run("fold", func(b *testing.B) {
		for b.Loop() {
			w := slices.Clone(window)
			slices.Sort(w)
			_ = mergeSorted(folded, w)
		}
	})
	b.Run("sort-all", func(b *testing.B) {
		all := append(slices.Clone(folded), window...)
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		for b.Loop() {
			slices.Sort(slices.Clone(all))
		}
	})
}
