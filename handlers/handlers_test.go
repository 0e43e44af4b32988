package handlers

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/chess"
	"satranc/static"
	"satranc/views"
)

// fakeDB is a Pinger whose answer the test chooses.
type fakeDB struct{ err error }

func (f fakeDB) Ping(context.Context) error { return f.err }

// newTestHandler returns the routes with a fake database and the buffer the
// log goes to.
func newTestHandler(t *testing.T, db Pinger) (http.Handler, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	h := New(Config{Logger: slog.New(slog.NewTextHandler(&logs, nil)), DB: db})
	return h.Routes(), &logs
}

// get performs a request against h and returns the recorded response.
func get(t *testing.T, h http.Handler, target string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

// TestBoardStartingPosition draws the starting position (the board the
// home page showed before it became the page that starts games) and checks
// every square, then the layout's head on the home page.
func TestBoardStartingPosition(t *testing.T) {
	p, err := chess.ParseFEN(chess.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := views.Board(views.NewBoardView(p, chess.White)).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	board := doc.Find(`[data-testid="board"]`)
	if board.Length() != 1 {
		t.Fatalf("found %d boards, want 1", board.Length())
	}
	if o, _ := board.Attr("data-orientation"); o != "white" {
		t.Errorf("data-orientation = %q, want white", o)
	}
	squares := board.Find(`[data-testid="square"]`)
	if squares.Length() != 64 {
		t.Fatalf("found %d squares, want 64", squares.Length())
	}

	// The starting position, rank 8 first, as the squares appear on screen
	// with White at the bottom.
	const start = "rnbqkbnr" + "pppppppp" + "........" + "........" +
		"........" + "........" + "PPPPPPPP" + "RNBQKBNR"
	pieces := 0
	squares.Each(func(i int, s *goquery.Selection) {
		name, _ := s.Attr("data-square")
		wantName := string(rune('a'+i%8)) + string(rune('8'-i/8))
		if name != wantName {
			t.Errorf("square %d is %q, want %q", i, name, wantName)
		}
		want := ""
		if c := start[i]; c != '.' {
			side := "w"
			if c >= 'a' {
				side = "b"
			}
			want = side + strings.ToUpper(string(c))
		}
		img := s.Find(`img.piece`)
		got, _ := img.Attr("data-piece")
		if got != want {
			t.Errorf("%s holds %q, want %q", name, got, want)
		}
		if img.Length() > 0 {
			pieces++
			src, _ := img.Attr("src")
			if !strings.HasPrefix(src, "/static/img/pieces/sultan/"+want+".svg?v=") { // the default set
				t.Errorf("%s: img src = %q", name, src)
			}
			if alt, _ := img.Attr("alt"); alt == "" {
				t.Errorf("%s: img has no alt text", name)
			}
		}
		light := s.HasClass("sq-light")
		wantLight := (i%8+(7-i/8))%2 == 1
		if light != wantLight || light == s.HasClass("sq-dark") {
			t.Errorf("%s: classes %q, want light=%v", name, s.AttrOr("class", ""), wantLight)
		}
	})
	if pieces != 32 {
		t.Errorf("found %d pieces, want 32", pieces)
	}
	if got := doc.Find(`[data-square="h1"]`).HasClass("sq-light"); !got {
		t.Errorf("h1 is not a light square")
	}
	if files := doc.Find(".coord-file").Text(); files != "abcdefgh" {
		t.Errorf("file labels = %q, want abcdefgh", files)
	}
	if ranks := doc.Find(".coord-rank").Text(); ranks != "87654321" {
		t.Errorf("rank labels = %q, want 87654321", ranks)
	}

	// The layout links the stylesheet and the deferred scripts.
	h, _ := newTestHandler(t, fakeDB{})
	resp := get(t, h, "/")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET / = %d, want 200", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	if doc, err = goquery.NewDocumentFromReader(resp.Body); err != nil {
		t.Fatal(err)
	}
	for _, sel := range []string{
		`link[rel="stylesheet"][href^="/static/css/app.css?v="]`,
		`script[src^="/static/js/htmx.min.js?v="][defer]`,
		`script[src^="/static/js/htmx-ext-sse.min.js?v="][defer]`,
	} {
		if doc.Find(sel).Length() != 1 {
			t.Errorf("head lacks %s", sel)
		}
	}
}

func TestStaticFiles(t *testing.T) {
	h, _ := newTestHandler(t, fakeDB{})
	tests := []struct {
		path, contentType string
	}{
		{"/static/js/htmx.min.js", "text/javascript; charset=utf-8"},
		{"/static/js/htmx-ext-sse.min.js", "text/javascript; charset=utf-8"},
		{"/static/css/app.css", "text/css; charset=utf-8"},
		{"/static/img/pieces/wK.svg", "image/svg+xml"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			resp := get(t, h, tc.path)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s = %d", tc.path, resp.StatusCode)
			}
			if ct := resp.Header.Get("Content-Type"); ct != tc.contentType {
				t.Errorf("Content-Type = %q, want %q", ct, tc.contentType)
			}
			want, err := static.FS.ReadFile(strings.TrimPrefix(tc.path, "/static/"))
			if err != nil || !bytes.Equal(body, want) {
				t.Errorf("body differs from the embedded file (err %v)", err)
			}
			if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
				t.Errorf("unversioned Cache-Control = %q, want no-cache", cc)
			}
			etag := resp.Header.Get("ETag")
			if etag == "" {
				t.Fatal("no ETag")
			}

			versioned := get(t, h, static.URL(strings.TrimPrefix(tc.path, "/static/")))
			if cc := versioned.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
				t.Errorf("versioned Cache-Control = %q, want immutable", cc)
			}
			again := get(t, h, tc.path, "If-None-Match", etag)
			if again.StatusCode != http.StatusNotModified {
				t.Errorf("GET with If-None-Match = %d, want 304", again.StatusCode)
			}
		})
	}
}

func TestStaticNotFound(t *testing.T) {
	h, _ := newTestHandler(t, fakeDB{})
	for _, path := range []string{"/static/", "/static/js/", "/static/nope.js", "/static/js/README.md", "/static/../go.mod"} {
		if resp := get(t, h, path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, resp.StatusCode)
		}
	}
}

func TestHealth(t *testing.T) {
	t.Run("ok", func(t *testing.T) {
		h, _ := newTestHandler(t, fakeDB{})
		resp := get(t, h, "/healthz")
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || string(body) != "ok\n" {
			t.Errorf("GET /healthz = %d %q, want 200 ok", resp.StatusCode, body)
		}
	})
	t.Run("database down", func(t *testing.T) {
		h, logs := newTestHandler(t, fakeDB{err: errors.New("disk on fire")})
		resp := get(t, h, "/healthz")
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("GET /healthz = %d, want 503", resp.StatusCode)
		}
		if strings.Contains(string(body), "disk on fire") {
			t.Errorf("response leaks the internal error: %s", body)
		}
		if !strings.Contains(logs.String(), "disk on fire") {
			t.Errorf("log lacks the internal error:\n%s", logs)
		}
	})
}

func TestNotFound(t *testing.T) {
	h, _ := newTestHandler(t, fakeDB{})
	resp := get(t, h, "/no/such/page")
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET /no/such/page = %d, want 404", resp.StatusCode)
	}
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := doc.Find(`[data-testid="error"]`).Attr("data-status"); s != "404" {
		t.Errorf("error page status = %q, want 404", s)
	}
}

func TestMethodNotAllowed(t *testing.T) {
	h, _ := newTestHandler(t, fakeDB{})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST / = %d, want 405", rec.Code)
	}
}

func TestHead(t *testing.T) {
	h, _ := newTestHandler(t, fakeDB{})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("HEAD /healthz = %d, want 200", rec.Code)
	}
}

func TestRecoverPanics(t *testing.T) {
	var logs bytes.Buffer
	h := New(Config{Logger: slog.New(slog.NewTextHandler(&logs, nil)), DB: fakeDB{}})
	boom := h.logRequests(h.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("secret internal detail")
	})))
	rec := httptest.NewRecorder()
	boom.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/boom", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("status = %d, want 500", rec.Code)
	}
	if strings.Contains(rec.Body.String(), "secret") {
		t.Errorf("response leaks the panic value")
	}
	if !strings.Contains(logs.String(), "secret internal detail") || !strings.Contains(logs.String(), "status=500") {
		t.Errorf("log lacks the panic or the 500:\n%s", logs.String())
	}
}

func TestRequestLog(t *testing.T) {
	h, logs := newTestHandler(t, fakeDB{})
	get(t, h, "/healthz")
	line := logs.String()
	for _, want := range []string{"msg=request", "method=GET", "path=/healthz", "status=200", "duration="} {
		if !strings.Contains(line, want) {
			t.Errorf("log %q lacks %q", line, want)
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	h, _ := newTestHandler(t, fakeDB{})
	want := map[string]string{
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "same-origin",
		"X-Frame-Options":        "DENY",
	}
	// Pages, an error page, a static file and the health check alike.
	for _, target := range []string{"/", "/nope", static.URL("css/app.css"), "/healthz"} {
		resp := get(t, h, target)
		for name, value := range want {
			if got := resp.Header.Get(name); got != value {
				t.Errorf("%s: %s = %q, want %q", target, name, got, value)
			}
		}
		csp := resp.Header.Get("Content-Security-Policy")
		directives := map[string]string{}
		for d := range strings.SplitSeq(csp, ";") {
			name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
			directives[name] = value
		}
		for name, value := range map[string]string{
			"default-src": "'self'", "script-src": "'self'", "style-src": "'self'",
			"object-src": "'none'", "base-uri": "'none'", "frame-ancestors": "'none'", "form-action": "'self'",
		} {
			if directives[name] != value {
				t.Errorf("%s: CSP %s = %q, want %q (%s)", target, name, directives[name], value, csp)
			}
		}
		if strings.Contains(csp, "unsafe-") {
			t.Errorf("%s: CSP allows something unsafe: %s", target, csp)
		}
	}
}

// TestSecurityHeadersNotShared: the security headers' values are made
// once for every response (securityHeaderValues); a handler that adds to
// one or sets one changes its own response only.
func TestSecurityHeadersNotShared(t *testing.T) {
	adding := func(value string) http.Handler {
		return securityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add("X-Frame-Options", value)
			w.Header().Set("Referrer-Policy", "no-referrer")
		}))
	}
	serve := func(h http.Handler) http.Header {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		return rec.Header()
	}
	first := serve(adding("SAMEORIGIN"))
	serve(adding("ALLOW-FROM https://example.org"))
	if got := first.Values("X-Frame-Options"); !slices.Equal(got, []string{"DENY", "SAMEORIGIN"}) {
		t.Errorf("the first response's X-Frame-Options after another response's = %q, want DENY and SAMEORIGIN", got)
	}
	plain := serve(securityHeaders(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})))
	for name, want := range map[string]string{
		"X-Frame-Options": "DENY", "Referrer-Policy": "same-origin", "X-Content-Type-Options": "nosniff",
		"Content-Security-Policy": contentSecurityPolicy,
	} {
		if got := plain.Values(name); len(got) != 1 || got[0] != want {
			t.Errorf("the next response's %s = %q, want %q", name, got, want)
		}
	}
}

// TestPagesFitTheCSP: the pages carry nothing the Content-Security-Policy
// would block, and htmx is told not to need it: no inline script, style
// element or style attribute, no event-handler attribute, no javascript:
// link, no htmx attribute that htmx would evaluate.
func TestPagesFitTheCSP(t *testing.T) {
	h, _ := newTestHandler(t, fakeDB{})
	pages := map[string]*http.Response{}
	for _, target := range []string{"/", "/rules", "/guidelines", "/tournament-rules", "/terms", "/nope"} {
		pages[target] = get(t, h, target)
	}
	e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4"))
	pages["game page"] = e.do(t, gameReq{target: "/games/7", as: &ayse})
	pages["new game"] = e.do(t, gameReq{target: "/play", as: &ayse})
	for name, resp := range pages {
		doc := parse(t, resp)
		checkCSPSafe(t, name, doc)
		if got, _ := doc.Find(`meta[name="htmx-config"]`).Attr("content"); !strings.Contains(got, `"includeIndicatorStyles":false`) ||
			!strings.Contains(got, `"allowEval":false`) || !strings.Contains(got, `"allowScriptTags":false`) {
			t.Errorf("%s: htmx-config = %q", name, got)
		}
	}
}

// checkCSPSafe reports whatever in doc a policy without 'unsafe-inline'
// and 'unsafe-eval' would block.
func checkCSPSafe(t *testing.T, page string, doc *goquery.Document) {
	t.Helper()
	doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		if _, ok := s.Attr("src"); !ok {
			t.Errorf("%s: inline script %.80q", page, s.Text())
		}
	})
	if n := doc.Find("style").Length(); n > 0 {
		t.Errorf("%s: %d style elements", page, n)
	}
	doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Nodes[0].Attr {
			name, value := strings.ToLower(a.Key), strings.ToLower(strings.TrimSpace(a.Val))
			switch {
			case name == "style", strings.HasPrefix(name, "on"), strings.HasPrefix(name, "hx-on"),
				strings.HasPrefix(value, "javascript:"),
				(name == "hx-vals" || name == "hx-vars") && strings.HasPrefix(value, "js:"),
				name == "hx-trigger" && strings.Contains(value, "["):
				t.Errorf("%s: <%s %s=%q> needs an inline script or eval", page, goquery.NodeName(s), a.Key, a.Val)
			}
		}
	})
}
