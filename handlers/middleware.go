package handlers

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"
)

// statusRecorder remembers the status and size of a response. Unwrap lets
// http.ResponseController reach the underlying writer (Flush for SSE).
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// AccessLogMessage is the message of the access log's lines, one a
// request: the server's log writer lets them wait for a batch (satranc
// serve's logBuffer) and writes every other line at once.
const AccessLogMessage = "request"

// logRequests logs one line per request with its status, size, duration
// and protocol. It compresses pages too (compressPages), inside the log, so
// that the size logged is the size on the wire, and here, ahead of every
// other middleware, so that the error pages and fragments they write are
// compressed as well.
func (h *Handler) logRequests(next http.Handler) http.Handler {
	next = compressPages(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			status := rec.status
			if status == 0 {
				status = http.StatusOK
			}
			level := slog.LevelInfo
			if status >= 500 {
				level = slog.LevelError
			}
			ctx := r.Context()
			if !h.log.Enabled(ctx, level) {
				return
			}
			// A record without its caller's frame: the logger's own
			// methods look it up (runtime.Callers) for a source that the
			// site's handlers never print, some 250 ns of every request
			// (BenchmarkLogRequests).
			line := slog.NewRecord(time.Now(), level, AccessLogMessage, 0)
			line.AddAttrs(
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", status),
				slog.Int("bytes", rec.bytes),
				slog.Duration("duration", time.Since(start)),
				slog.String("remote", r.RemoteAddr),
				slog.String("proto", r.Proto), // behind a proxy, HTTP/2.0 says it speaks h2c (ServeH2C)
			)
			_ = h.log.Handler().Handle(ctx, line)
		}()
		next.ServeHTTP(rec, r)
	})
}

// recoverPanics turns a panic in a handler into a logged 500 response.
// http.ErrAbortHandler is re-raised: it is the way to abort a response.
func (h *Handler) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.log.ErrorContext(r.Context(), "panic", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			h.fail(w, r, fmt.Errorf("panic: %v", v))
		}()
		next.ServeHTTP(w, r)
	})
}

// contentSecurityPolicy lets pages load scripts, styles, images and
// connections (htmx requests, event streams) from this site only: no inline
// script or style, no eval (htmx is configured for that in the layout's
// htmx-config), no plugins, no <base> and no forms to other sites, and no
// framing by any site (clickjacking).
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
	"frame-ancestors 'none'"

// securityHeaderValues are the values of securityHeaders, by canonical
// name, made once: Header.Set makes a slice for each value of each
// response, 3.6% of what the server allocated at 10,000 games. net/http
// only reads a response's values (HTTP/2 copies them as it sends them);
// a handler that sets one of these headers again replaces the slice, and
// one that adds a value appends to a full slice, which makes a new array.
// (Nothing writes into a header's slice in place: that would change
// every response.)
var securityHeaderValues = [...]struct {
	name  string
	value []string
}{
	{"Content-Security-Policy", []string{contentSecurityPolicy}},
	{"X-Content-Type-Options", []string{"nosniff"}},
	{"Referrer-Policy", []string{"same-origin"}},
	// X-Frame-Options repeats frame-ancestors for browsers without CSP
	// level 2.
	{"X-Frame-Options", []string{"DENY"}},
}

// securityHeaders sets headers every response should carry.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		for _, h := range securityHeaderValues {
			hd[h.name] = h.value
		}
		next.ServeHTTP(w, r)
	})
}

// maxFormBytes bounds the body of a POST. The largest form, the sign-up
// (a name and a password of at most 256 bytes), needs a fraction of it.
const maxFormBytes = 64 << 10

// limitForms reads the whole body of every POST, at most maxFormBytes, and
// its form, so that handlers find it parsed: a larger body, whatever its
// type, is refused with 413, and one that is not a form (a bad %-escape)
// with 400, before any handler runs. Without it a handler's PostFormValue
// would take a body that failed to parse for an empty form, and an action
// that reads no form (resigning) would run whatever the body.
func (h *Handler) limitForms(next http.Handler) http.Handler {
	refuse := func(err error) http.Handler {
		return h.page(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.fail(w, r, err) }))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if err := readPost(r); err != nil {
			if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
				refuse(fmt.Errorf("%w: %w", errTooLarge, err)).ServeHTTP(w, r)
			} else {
				refuse(fmt.Errorf("%w: %w", errBadRequest, err)).ServeHTTP(w, r)
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// crossOriginProtection refuses every cross-origin request that is not
// GET, HEAD or OPTIONS, judged by the browser's Sec-Fetch-Site or Origin
// header (http.CrossOriginProtection). That is the protection against
// cross-site request forgery: state changes only on POST, and a POST from
// another site never arrives. The refusal is the localised 403 page.
func (h *Handler) crossOriginProtection() func(http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	if h.base != nil {
		// A proxy may pass its own Host on; the public origin is ours all the same.
		if err := cop.AddTrustedOrigin(h.base.Scheme + "://" + h.base.Host); err != nil {
			h.log.Error("base URL not trusted as an origin", "err", err)
		}
	}
	cop.SetDenyHandler(h.page(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, errCrossOrigin)
	})))
	return cop.Handler
}
