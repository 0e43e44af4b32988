package handlers

import (
	"net/http"
	"net/http/pprof"
)

// DebugRoutes returns the routes of the separate debugging listener
// (serve --debug-addr): the net/http/pprof profiles under /debug/pprof/ and,
// when m is not nil, the metrics at /metrics. It has no authentication, so
// it must listen only where operators can reach it (such as 127.0.0.1).
func DebugRoutes(m *Metrics) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	if m != nil {
		mux.Handle("/metrics", m.Handler())
	}
	return mux
}
