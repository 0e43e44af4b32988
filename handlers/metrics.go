package handlers

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"satranc/engine/bot"
	"satranc/engine/game"
	"satranc/engine/play"
)

// moveRoute is the route pattern of a move post, whose duration
// satranc_move_duration_seconds measures.
const moveRoute = "/games/{id}/moves"

// MetricsConfig configures NewMetrics.
type MetricsConfig struct {
	// Version is exported as the version label of satranc_build_info.
	Version string
	// LiveGames, when set, reports the games being played in this process
	// (play.Service.LiveGames); it backs satranc_live_games.
	LiveGames func() int
	// BotSearches, when set, reports the computer players' searches
	// running now and done so far, and the time they took and waited for
	// a core (bot.Pool.Stats); it backs satranc_bot_searches,
	// satranc_bot_searches_total, satranc_bot_search_seconds_total and
	// satranc_bot_search_wait_seconds_total.
	BotSearches func() bot.PoolStats
	// StoreErrors, when set, reports the database errors the store has
	// returned so far (store.Store.Errors); it backs
	// satranc_store_errors_total.
	StoreErrors func() uint64
}

// Metrics are the Prometheus metrics of the server, in their own registry
// (no global state): HTTP requests by route pattern and status, open event
// streams, moves, and the Go runtime and process collectors. A nil
// *Metrics records nothing.
type Metrics struct {
	reg          *prometheus.Registry
	requests     *prometheus.CounterVec
	duration     *prometheus.HistogramVec
	streams      prometheus.Gauge
	refused      *prometheus.CounterVec
	busStreams   prometheus.Counter
	moves        prometheus.Counter
	moveDuration prometheus.Histogram
	moveLatency  prometheus.Histogram
}

// NewMetrics returns the server's metrics, registered in a new registry.
func NewMetrics(cfg MetricsConfig) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "satranc_http_requests_total",
			Help: "HTTP requests answered, by method, route pattern and status code.",
		}, []string{"method", "route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "satranc_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method and route pattern; event streams are left out.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "satranc_sse_streams",
			Help: "Game event streams (SSE) open now.",
		}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "satranc_sse_streams_refused_total",
			Help: "Event streams refused with 429, by the cap they met: member, address or total (handlers/stream_limit.go).",
		}, []string{"reason"}),
		busStreams: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "satranc_sse_bus_streams_total",
			Help: "Game event streams served by this node from the bus, for games another node owns (docs/scaling.md).",
		}),
		moves: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "satranc_moves_total",
			Help: "Moves played by people over HTTP and accepted (computer moves are not counted).",
		}),
		moveDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "satranc_move_duration_seconds",
			Help: "Time from receiving an accepted move post to answering it: validation, the SQLite commit " +
				"and the publication of the event to the game's streams, which happens before the answer.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}),
		moveLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "satranc_move_event_latency_seconds",
			Help: "Time from a move being accepted (the time its event carries) to writing that move's event " +
				"to a game stream, observed once per stream; computer moves included.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}),
	}
	for _, reason := range []string{streamCapMember, streamCapAddress, streamCapTotal} {
		m.refused.WithLabelValues(reason) // exported as 0 until the first refusal
	}
	m.reg.MustRegister(m.requests, m.duration, m.streams, m.refused, m.busStreams, m.moves, m.moveDuration, m.moveLatency,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	info := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "satranc_build_info",
		Help: "Always 1; the version label is the server's version.",
	}, []string{"version"})
	info.WithLabelValues(cfg.Version).Set(1)
	m.reg.MustRegister(info)
	if cfg.LiveGames != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "satranc_live_games",
			Help: "Games running in this process (being played, or waiting for the opponent).",
		}, func() float64 { return float64(cfg.LiveGames()) }))
	}
	if cfg.BotSearches != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "satranc_bot_searches",
			Help: "Computer players' searches running now (at most one per core).",
		}, func() float64 { return float64(cfg.BotSearches().Running) }))
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "satranc_bot_searches_total",
			Help: "Computer players' searches done, whether they ended with a move or were cut short.",
		}, func() float64 { return float64(cfg.BotSearches().Done) }))
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "satranc_bot_search_seconds_total",
			Help: "Time the computer players' searches ran, in seconds.",
		}, func() float64 { return cfg.BotSearches().Searched.Seconds() }))
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "satranc_bot_search_wait_seconds_total",
			Help: "Time the computer players' searches waited for a free core, in seconds.",
		}, func() float64 { return cfg.BotSearches().Waited.Seconds() }))
	}
	if cfg.StoreErrors != nil {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "satranc_store_errors_total",
			Help: "Database errors (SQLite or PostgreSQL) the store returned; no rows found and refusals are not errors.",
		}, func() float64 { return float64(cfg.StoreErrors()) }))
	}
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// instrument counts each request by its chi route pattern (known once the
// router has matched it) and status, and times it. Event streams, which
// last as long as a page is open, are counted but not timed.
func (m *Metrics) instrument(next http.Handler) http.Handler {
	if m == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		elapsed := time.Since(start).Seconds()
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		route := "unmatched" // keeps unknown paths from making new series
		if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
			route = rc.RoutePattern()
		}
		m.requests.WithLabelValues(r.Method, route, strconv.Itoa(status)).Inc()
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
			return
		}
		m.duration.WithLabelValues(r.Method, route).Observe(elapsed)
		if r.Method == http.MethodPost && route == moveRoute && status < 300 {
			m.moves.Inc()
			m.moveDuration.Observe(elapsed)
		}
	})
}

// busStream counts a game stream served from the bus.
func (m *Metrics) busStream() {
	if m != nil {
		m.busStreams.Inc()
	}
}

// streamRefused counts an event stream refused at a cap, the reason
// (streamCap*).
func (m *Metrics) streamRefused(reason string) {
	if m != nil {
		m.refused.WithLabelValues(reason).Inc()
	}
}

// streamStarted counts an event stream as open until the returned function
// is called.
func (m *Metrics) streamStarted() (done func()) {
	if m == nil {
		return func() {}
	}
	m.streams.Inc()
	return m.streams.Dec
}

// movesWritten observes, for each move in a burst of events just written
// to a stream, the time since the move was accepted: the time of its
// stamp, set when the game took it (on the game's owner, for a stream
// served from the bus).
func (m *Metrics) movesWritten(burst []*play.Event, now time.Time) {
	if m == nil {
		return
	}
	for _, ev := range burst {
		if mv, ok := ev.Payload.(game.Moved); ok && !mv.Time.IsZero() {
			m.moveLatency.Observe(now.Sub(mv.Time).Seconds())
		}
	}
}
