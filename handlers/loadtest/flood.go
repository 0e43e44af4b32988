package loadtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// A flood is one member opening event streams by the thousand, as a
// script would, while the games go on (docs/operations.md, "Limits on
// event streams"): the server must refuse what passes its caps and keep
// serving pages and moves. The streams come from Config.FloodAddresses
// client addresses, given in X-Forwarded-For, which the server believes
// only from a proxy it trusts: serve with --trusted-proxy 127.0.0.1 for
// them to count as several.

// floodInFlight bounds the stream requests on their way at once.
const floodInFlight = 200

// floodAddress is the i-th of the flood's client addresses.
func floodAddress(i int) string { return fmt.Sprintf("10.77.%d.%d", i/250, i%250+1) }

// flood opens cfg.Flood streams of the Watch page as one new member, from
// cfg.FloodAddresses addresses in turn, and reports the answers; the
// streams let in stay open until the returned function is called.
func flood(ctx context.Context, cfg Config, t transports, run string, out io.Writer) (func(), error) {
	u, err := signUp(ctx, t, cfg.Base, "lt"+run+"_flood")
	if err != nil {
		return nil, fmt.Errorf("flood: %w", err)
	}
	streamCtx, closeStreams := context.WithCancel(ctx)
	var mu sync.Mutex
	codes := map[int]int{}
	var failed int
	var open []io.Closer
	sem := make(chan struct{}, floodInFlight)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range cfg.Flood {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			req, err := http.NewRequestWithContext(streamCtx, http.MethodGet, cfg.Base+"/watch/events", nil)
			if err != nil {
				return
			}
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("X-Forwarded-For", floodAddress(i%max(cfg.FloodAddresses, 1)))
			resp, err := u.streams.Do(req)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed++
				return
			}
			codes[resp.StatusCode]++
			if resp.StatusCode == http.StatusOK {
				open = append(open, resp.Body)
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()
	var parts []string
	for code, n := range codes {
		parts = append(parts, fmt.Sprintf("%d: %d", code, n))
	}
	sort.Strings(parts)
	fmt.Fprintf(out, "flood: %d streams from %d addresses in %v: %s, failed %d\n",
		cfg.Flood, max(cfg.FloodAddresses, 1), time.Since(start).Round(time.Millisecond), strings.Join(parts, ", "), failed)
	return func() {
		closeStreams()
		mu.Lock()
		defer mu.Unlock()
		for _, b := range open {
			b.Close()
		}
	}, nil
}
