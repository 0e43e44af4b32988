package loadtest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sample is the server's memory and goroutines at one moment, from its
// Prometheus /metrics; zero values are metrics it did not report.
type Sample struct {
	Label     string  // when it was taken: "before", "t=10s", "end" ...
	RSS       float64 // process_resident_memory_bytes
	HeapInuse float64 // go_memstats_heap_inuse_bytes
	// HeapAlloc counts the heap's objects, live or not yet collected:
	// right after a collection, the live ones only. HeapInuse also counts
	// the free room of every span holding an object.
	HeapAlloc  float64 // go_memstats_heap_alloc_bytes
	StackInuse float64 // go_memstats_stack_inuse_bytes
	Goroutines float64 // go_goroutines
	Streams    float64 // satranc_sse_streams
	FDs        float64 // process_open_fds
	// Err is why the sample could not be read; a run goes on without it.
	Err error
}

// String formats the sample as the driver's report lines show it.
func (m Sample) String() string {
	if m.Err != nil {
		return "server metrics: " + m.Err.Error()
	}
	s := fmt.Sprintf("rss=%.1fMB heap=%.1fMB goroutines=%.0f", m.RSS/1e6, m.HeapInuse/1e6, m.Goroutines)
	if m.FDs > 0 {
		s += fmt.Sprintf(" fds=%.0f", m.FDs)
	}
	return s
}

// readMetrics fetches and parses the server's /metrics. A failure is kept
// in the sample's Err rather than returned: a server too busy to answer
// its metrics is worth reporting, not a reason to stop the games.
func readMetrics(ctx context.Context, c *http.Client, url string) Sample {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Sample{Err: fmt.Errorf("metrics: %w", err)}
	}
	resp, err := c.Do(req)
	if err != nil {
		return Sample{Err: fmt.Errorf("metrics: %w", err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Sample{Err: fmt.Errorf("metrics: HTTP %d", resp.StatusCode)}
	}
	return parseMetrics(resp.Body)
}

// parseMetrics reads the few metrics a Sample keeps from the Prometheus
// text format; only unlabelled series are read, which these all are.
func parseMetrics(r io.Reader) Sample {
	var m Sample
	sc := bufio.NewScanner(r)
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
		case "process_open_fds":
			m.FDs = v
		}
	}
	if err := sc.Err(); err != nil {
		m.Err = fmt.Errorf("metrics: %w", err)
	}
	return m
}

// collectGarbage asks the server's debug listener for a heap profile after
// a garbage collection (the runtime collects before writing it), so that
// the next memory sample counts live memory only. It is best effort: a
// failure only makes the next sample less exact. The debug listener
// speaks HTTP/1.1 only, whatever the site speaks (Config.H2C): it has a
// client of its own.
func collectGarbage(ctx context.Context, debug string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, debug+"/debug/pprof/heap?gc=1", nil)
	if err != nil {
		return
	}
	if resp, err := debugClient.Do(req); err == nil {
		drainClose(resp)
	}
}

var debugClient = &http.Client{Timeout: 30 * time.Second}
