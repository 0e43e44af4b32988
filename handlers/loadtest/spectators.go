package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// openSpectators signs up one spectator and opens cfg.Spectators streams of
// the games, spread over them, as idle browser tabs would: each loads the
// game's page and opens the stream the page names. It waits until each
// stream is open and reports the server's memory before and after, per
// stream. The streams stay open, receiving the games'
// events, until the returned function closes them.
func openSpectators(ctx context.Context, cfg Config, t transports, run string, pairs []*pair,
	st *stats, out io.Writer) (func(), error) {
	var games []string
	for _, p := range pairs {
		if p != nil {
			games = append(games, p.path)
		}
	}
	if len(games) == 0 {
		return nil, errors.New("spectators: no game to watch")
	}
	u, err := signUp(ctx, t, cfg.Base, "lt"+run+"_watch")
	if err != nil {
		return nil, fmt.Errorf("spectators: %w", err)
	}
	client := &http.Client{Transport: t.requests, Timeout: 10 * time.Second}
	measure := func(label string) Sample {
		// A collection shrinks each idle goroutine's stack by half at most:
		// a few of them let the stacks come down to what the streams use.
		for range 4 {
			if cfg.Debug != "" {
				collectGarbage(ctx, cfg.Debug)
			}
		}
		m := readMetrics(ctx, client, cfg.Base+"/metrics")
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
	for i := range cfg.Spectators {
		path := games[i%len(games)]
		opened.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			// A tab loads the game's page, then opens the stream it names.
			p, err := u.getPage(streamCtx, path, "spectator-page")
			if err == nil {
				s := newGameStream()
				s.sizes, s.first = st.received, p.stream
				readers.Go(func() { s.run(streamCtx, u, path, st.fail) })
				_, err = s.wait(streamCtx, waitOpen, time.Minute)
			}
			if err != nil {
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
		return nil, fmt.Errorf("spectators: %d of %d pages or streams did not open within a minute", failed, cfg.Spectators)
	}
	// Let the server settle after the burst; ctx ending cuts it short.
	select {
	case <-ctx.Done():
	case <-time.After(2 * time.Second):
	}
	after := measure("with spectators")
	k := float64(cfg.Spectators)
	fmt.Fprintf(out, "spectators: %d streams open in %v; with them: %s\n", cfg.Spectators, time.Since(start).Round(time.Millisecond), after)
	// heap is the spans in use, live objects and the free room beside
	// them; live is the objects alone, the collections having just run.
	fmt.Fprintf(out, "spectators: per idle stream: rss %.1f KB, heap %.1f KB (live %.1f KB), stacks %.1f KB, goroutines %.2f (server streams %+.0f)\n",
		(after.RSS-before.RSS)/k/1024, (after.HeapInuse-before.HeapInuse)/k/1024, (after.HeapAlloc-before.HeapAlloc)/k/1024,
		(after.StackInuse-before.StackInuse)/k/1024, (after.Goroutines-before.Goroutines)/k, after.Streams-before.Streams)
	return closeAll, nil
}
