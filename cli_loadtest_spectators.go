package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// openSpectators signs up one spectator and opens cfg.spectators streams of
// the games, spread over them, as idle browser tabs would; it waits until
// each stream has its first event and reports the server's memory before
// and after, per stream. The streams stay open, receiving the games'
// events, until the returned function closes them.
func openSpectators(ctx context.Context, cfg loadConfig, tr *http.Transport, run string, pairs []*loadPair,
	stats *loadStats, out io.Writer) (func(), error) {
	var games []string
	for _, p := range pairs {
		if p != nil {
			games = append(games, p.path)
		}
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("spectators: no game to watch")
	}
	u, err := signUpLoadUser(ctx, tr, cfg.base, "lt"+run+"_watch")
	if err != nil {
		return nil, fmt.Errorf("spectators: %w", err)
	}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	measure := func(label string) metricsSample {
		// A collection shrinks each idle goroutine's stack by half at most:
		// a few of them let the stacks come down to what the streams use.
		for range 4 {
			if cfg.debug != "" {
				collectGarbage(ctx, client, cfg.debug)
			}
		}
		m := readMetrics(ctx, client, cfg.base+"/metrics")
		m.Label = label
		return m
	}
	before := measure("before spectators")
	fmt.Fprintf(out, "spectators: before: %s\n", before)

	start := time.Now()
	streamCtx, closeStreams := context.WithCancel(ctx)
	var readers sync.WaitGroup
	sem := make(chan struct{}, 64) // connections being opened at once
	var opened sync.WaitGroup
	var failed int
	var mu sync.Mutex
	for i := range cfg.spectators {
		path := games[i%len(games)]
		s := newGameStream()
		readers.Go(func() { s.run(streamCtx, u, path, stats.fail) })
		opened.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if _, err := s.wait(streamCtx, 0, time.Minute); err != nil {
				mu.Lock()
				failed++
				mu.Unlock()
			}
		})
	}
	opened.Wait()
	closeAll := func() { closeStreams(); readers.Wait() }
	if failed > 0 {
		closeAll()
		return nil, fmt.Errorf("spectators: %d of %d streams sent nothing within a minute", failed, cfg.spectators)
	}
	time.Sleep(2 * time.Second) // let the server settle after the burst
	after := measure("with spectators")
	k := float64(cfg.spectators)
	fmt.Fprintf(out, "spectators: %d streams open in %v; with them: %s\n", cfg.spectators, time.Since(start).Round(time.Millisecond), after)
	fmt.Fprintf(out, "spectators: per idle stream: rss %.1f KB, heap %.1f KB, stacks %.1f KB, goroutines %.2f (server streams %+.0f)\n",
		(after.RSS-before.RSS)/k/1024, (after.HeapInuse-before.HeapInuse)/k/1024, (after.StackInuse-before.StackInuse)/k/1024,
		(after.Goroutines-before.Goroutines)/k, after.Streams-before.Streams)
	return closeAll, nil
}

// collectGarbage asks the server's debug listener for a heap profile after
// a garbage collection (the runtime collects before writing it), so that
// the next memory sample counts live memory only.
func collectGarbage(ctx context.Context, c *http.Client, debug string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, debug+"/debug/pprof/heap?gc=1", nil)
	if err != nil {
		return
	}
	if resp, err := c.Do(req); err == nil {
		drainClose(resp)
	}
}
