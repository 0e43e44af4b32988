package handlers

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/static"
)

// gunzip decompresses b or fails.
func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAcceptsGzip(t *testing.T) {
	for header, want := range map[string]bool{
		"":                      false,
		"gzip":                  true,
		"gzip, deflate, br":     true,
		"br, GZIP;q=0.5":        true,
		"gzip;q=0":              false,
		"identity":              false,
		"*":                     true,
		"*;q=0":                 false,
		"gzip;q=0, *":           false,
		"deflate, *;q=0.1":      true,
		"br;q=1.0, gzip;q=0.8 ": true,
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if header != "" {
			r.Header.Set("Accept-Encoding", header)
		}
		if got := acceptsGzip(r); got != want {
			t.Errorf("Accept-Encoding %q: acceptsGzip = %v, want %v", header, got, want)
		}
	}
}

// TestStaticCompressed checks the static files: compressed once, served
// compressed to a client that accepts gzip with its own ETag and length,
// plain to one that does not, cached for good under a hashed URL only, and
// HEAD, conditional and Range requests answered as for a file on disk.
func TestStaticCompressed(t *testing.T) {
	h, _ := newTestHandler(t, fakeDB{})
	for _, name := range []string{"css/app.css", "js/htmx.min.js", "js/board.js", "img/pieces/wK.svg"} {
		t.Run(name, func(t *testing.T) {
			want, err := static.FS.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			url := static.URL(name)

			gz := get(t, h, url, "Accept-Encoding", "gzip, br")
			body, _ := io.ReadAll(gz.Body)
			if gz.StatusCode != http.StatusOK || gz.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("gzip: %d, Content-Encoding %q", gz.StatusCode, gz.Header.Get("Content-Encoding"))
			}
			if !bytes.Equal(gunzip(t, body), want) {
				t.Error("gzip: the body does not decompress to the file")
			}
			if len(body) >= len(want) {
				t.Errorf("gzip: %d bytes, the file has %d", len(body), len(want))
			}
			if got := gz.Header.Get("Content-Length"); got != strconv.Itoa(len(body)) {
				t.Errorf("gzip: Content-Length %q, body %d bytes", got, len(body))
			}
			if got := gz.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
				t.Errorf("hashed URL: Cache-Control %q", got)
			}
			if got := strings.Join(gz.Header.Values("Vary"), ", "); got != "Accept-Encoding" {
				t.Errorf("gzip: Vary %q", got)
			}

			plain := get(t, h, url)
			pbody, _ := io.ReadAll(plain.Body)
			if plain.Header.Get("Content-Encoding") != "" || !bytes.Equal(pbody, want) {
				t.Errorf("no Accept-Encoding: Content-Encoding %q, body equal %v", plain.Header.Get("Content-Encoding"), bytes.Equal(pbody, want))
			}
			if plain.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("identity: Vary %q", plain.Header.Get("Vary"))
			}
			etagGz, etagPlain := gz.Header.Get("ETag"), plain.Header.Get("ETag")
			if etagGz == "" || etagGz == etagPlain {
				t.Errorf("ETags gzip %q, identity %q: want two different ones", etagGz, etagPlain)
			}

			// Revalidation: each encoding's ETag gives a 304.
			if got := get(t, h, url, "Accept-Encoding", "gzip", "If-None-Match", etagGz); got.StatusCode != http.StatusNotModified {
				t.Errorf("If-None-Match gzip ETag: %d, want 304", got.StatusCode)
			}
			if got := get(t, h, url, "If-None-Match", etagPlain); got.StatusCode != http.StatusNotModified {
				t.Errorf("If-None-Match identity ETag: %d, want 304", got.StatusCode)
			}

			// An unhashed URL is revalidated before each use.
			if got := get(t, h, static.Prefix+name, "Accept-Encoding", "gzip").Header.Get("Cache-Control"); got != "no-cache" {
				t.Errorf("unhashed URL: Cache-Control %q, want no-cache", got)
			}

			// HEAD: the headers of GET, no body.
			req := httptest.NewRequest(http.MethodHead, url, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK || rec.Body.Len() != 0 ||
				rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("HEAD: %d, %d body bytes, Content-Encoding %q, Content-Length %q",
					rec.Code, rec.Body.Len(), rec.Header().Get("Content-Encoding"), rec.Header().Get("Content-Length"))
			}

			// Range: a slice of the plain file, even for a gzip client.
			rg := get(t, h, url, "Accept-Encoding", "gzip", "Range", "bytes=0-9")
			rbody, _ := io.ReadAll(rg.Body)
			if rg.StatusCode != http.StatusPartialContent || rg.Header.Get("Content-Encoding") != "" || !bytes.Equal(rbody, want[:10]) {
				t.Errorf("Range: %d, Content-Encoding %q, body %q", rg.StatusCode, rg.Header.Get("Content-Encoding"), rbody)
			}
		})
	}
}

// TestPagesCompressed checks compressPages on the real home page: gzip
// for a client that accepts it, the very same page plain for one that does
// not.
func TestPagesCompressed(t *testing.T) {
	h, _ := newTestHandler(t, fakeDB{})
	plain := get(t, h, "/")
	want, _ := io.ReadAll(plain.Body)
	if plain.Header.Get("Content-Encoding") != "" {
		t.Fatalf("no Accept-Encoding: Content-Encoding %q", plain.Header.Get("Content-Encoding"))
	}
	gz := get(t, h, "/", "Accept-Encoding", "gzip")
	body, _ := io.ReadAll(gz.Body)
	vary := strings.Join(gz.Header.Values("Vary"), ", ")
	if gz.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(vary, "Accept-Encoding") {
		t.Fatalf("gzip: Content-Encoding %q, Vary %q", gz.Header.Get("Content-Encoding"), vary)
	}
	if gz.Header.Get("Content-Length") != "" {
		t.Errorf("gzip: Content-Length %q left from the plain body", gz.Header.Get("Content-Length"))
	}
	// Two requests need not give byte-identical pages (a new guest's
	// session, say): compare the sizes, give or take a little.
	got := gunzip(t, body)
	if !bytes.HasPrefix(got, []byte("<!doctype html>")) && !bytes.HasPrefix(bytes.ToLower(got), []byte("<!doctype html>")) {
		t.Errorf("gzip body does not decompress to a page: %.40q", got)
	}
	if d := len(got) - len(want); d < -64 || d > 64 {
		t.Errorf("decompressed page %d bytes, plain page %d", len(got), len(want))
	}
	t.Logf("home page: %d bytes plain, %d gzip", len(want), len(body))
}

// serveCompressed serves handler behind compressPages on a real server and
// GETs it with Accept-Encoding as given, asking the client not to decode.
func serveCompressed(t *testing.T, handler http.HandlerFunc, acceptEncoding string) (*http.Response, func()) {
	t.Helper()
	srv := httptest.NewServer(compressPages(handler))
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding) // set by hand: the client then leaves the body encoded
	}
	c := srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	return resp, func() { resp.Body.Close(); srv.Close() }
}

func TestCompressPagesRules(t *testing.T) {
	big := "<!doctype html><p>" + strings.Repeat("Satranç ", 400)
	small := "<p>a button</p>"
	html := func(body string, setLength bool, extra ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			for i := 0; i+1 < len(extra); i += 2 {
				w.Header().Set(extra[i], extra[i+1])
			}
			if setLength {
				w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			}
			_, _ = io.WriteString(w, body)
		}
	}
	for _, tc := range []struct {
		name     string
		handler  http.HandlerFunc
		accept   string
		wantGzip bool
	}{
		{"large page", html(big, false), "gzip", true},
		{"large page with Content-Length", html(big, true), "gzip", true},
		{"large page written in pieces", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			for range 40 {
				_, _ = io.WriteString(w, big[:100])
			}
		}, "gzip", true},
		{"small fragment", html(small, false), "gzip", false},
		{"small fragment with Content-Length", html(small, true), "gzip", false},
		{"no Accept-Encoding", html(big, false), "", false},
		{"gzip refused", html(big, false), "gzip;q=0, br", false},
		{"compressed already", html(big, false, "Content-Encoding", "br"), "gzip", false},
		{"plain text", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			_, _ = io.WriteString(w, big)
		}, "gzip", false},
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere", http.StatusSeeOther)
		}, "gzip", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, done := serveCompressed(t, tc.handler, tc.accept)
			defer done()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			enc := resp.Header.Get("Content-Encoding")
			if tc.wantGzip {
				if enc != "gzip" {
					t.Fatalf("Content-Encoding %q, want gzip", enc)
				}
				body = gunzip(t, body)
			} else if enc == "gzip" {
				t.Fatal("compressed, want it passed through")
			}
			rec := httptest.NewRecorder()
			tc.handler(rec, httptest.NewRequest(http.MethodGet, "/", nil))
			want := rec.Body
			if resp.StatusCode != rec.Code || !bytes.Equal(body, want.Bytes()) {
				t.Errorf("got %d and %d bytes, want %d and %d", resp.StatusCode, len(body), rec.Code, want.Len())
			}
		})
	}
}

// TestCompressPagesFlush checks that a flush sends held-back bytes at once,
// for a small page (plain) and a compressed one alike.
func TestCompressPagesFlush(t *testing.T) {
	for _, size := range []int{100, 4000} {
		release := make(chan struct{})
		resp, done := serveCompressed(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, strings.Repeat("x", size-1)+"\n")
			if err := http.NewResponseController(w).Flush(); err != nil {
				t.Error(err)
			}
			<-release
		}, "gzip")
		var r io.Reader = resp.Body
		if resp.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			r = zr
		}
		line := make(chan int, 1)
		go func() {
			s, _ := bufio.NewReader(r).ReadString('\n')
			line <- len(s)
		}()
		select {
		case n := <-line:
			if n != size {
				t.Errorf("size %d: read %d bytes", size, n)
			}
		case <-time.After(sseTimeout):
			t.Errorf("size %d: the flushed bytes did not arrive", size)
		}
		close(release)
		done()
	}
}

// TestEventStreamNotCompressed opens a real game stream with gzip accepted:
// it has no Content-Encoding, and its first event arrives while the stream
// is open (nothing holds it back).
func TestEventStreamNotCompressed(t *testing.T) {
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	srv := newEventsServer(t, games)
	defer srv.Close()
	events, stop := rawStream(t, srv, "gzip")
	defer stop()
	select {
	case ev := <-events:
		if !strings.Contains(ev, "event: ") {
			t.Errorf("first event %.80q", ev)
		}
	case <-time.After(sseTimeout):
		t.Fatal("no event while the stream is open: held back")
	}
}

// rawStream opens game testGameID's events as bora with the Accept-Encoding
// given, checks they are not compressed, and returns each event's bytes as
// they were on the wire.
func rawStream(t *testing.T, srv *httptest.Server, acceptEncoding string) (<-chan string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/games/7/events", nil)
	req.Header.Set("Accept-Encoding", acceptEncoding)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: "tok-" + bora.Name})
	resp, err := srv.Client().Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("stream: Content-Type %q, Content-Encoding %q, want an uncompressed event stream",
			resp.Header.Get("Content-Type"), resp.Header.Get("Content-Encoding"))
	}
	events := make(chan string, 64)
	go func() {
		defer close(events)
		br := bufio.NewReader(resp.Body)
		var ev strings.Builder
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			ev.WriteString(line)
			if line == "\n" {
				if !strings.HasPrefix(ev.String(), ":") { // heartbeats are not events
					events <- ev.String()
				}
				ev.Reset()
			}
		}
	}()
	return events, func() { cancel(); resp.Body.Close() }
}

// TestEventStreamCompressionCost measures what gzip on a game's event stream
// would buy and cost (docs/performance.md, "Compression"): the bytes of
// each move event plain and through one gzip writer per stream flushed
// after each event, and the heap one gzip writer holds for an idle stream.
func TestEventStreamCompressionCost(t *testing.T) {
	moves := strings.Fields("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3 c6a5 b3c2 c7c5")
	games := newFakeGames(testSnapshot(t, time.Now(), moves[0]))
	srv := newEventsServer(t, games)
	defer srv.Close()
	events, stop := rawStream(t, srv, "gzip")
	defer stop()
	next := func() string {
		t.Helper()
		for {
			select {
			case ev := <-events:
				if strings.Contains(ev, "event: game\n") {
					return ev
				}
			case <-time.After(sseTimeout):
				t.Fatal("no game event")
			}
		}
	}
	var plain, compressed, alone []int
	var wire bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&wire, gzip.DefaultCompression)
	measure := func(ev string) {
		before := wire.Len()
		_, _ = io.WriteString(zw, ev)
		_ = zw.Flush()
		plain = append(plain, len(ev))
		compressed = append(compressed, wire.Len()-before)
		// Each event compressed on its own, with no window kept between
		// events: what a stream could have without a writer per stream.
		var one bytes.Buffer
		z1, _ := gzip.NewWriterLevel(&one, gzip.DefaultCompression)
		_, _ = io.WriteString(z1, ev)
		_ = z1.Close()
		alone = append(alone, one.Len())
	}
	measure(next()) // the snapshot
	for ply := 2; ply <= len(moves); ply++ {
		games.setSnap(testSnapshot(t, time.Now(), moves[:ply]...))
		games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{
			Stamp: game.Stamp{Ply: ply, Time: time.Now()}, Side: chess.Color(ply % 2),
		}})
		measure(next())
	}
	median := func(xs []int) int {
		s := append([]int(nil), xs[1:]...) // the moves, not the snapshot
		for i := range s {
			for j := i + 1; j < len(s); j++ {
				if s[j] < s[i] {
					s[i], s[j] = s[j], s[i]
				}
			}
		}
		return s[len(s)/2]
	}
	t.Logf("snapshot event: %d bytes plain, %d gzip", plain[0], compressed[0])
	t.Logf("move events (%d): median %d bytes plain, %d gzip (flushed per event)", len(plain)-1, median(plain), median(compressed))
	t.Logf("move events compressed each on its own: median %d bytes", median(alone))

	// The heap one idle stream's gzip writer would hold, after its first
	// event, for each level.
	for _, level := range []int{gzip.BestSpeed, gzip.DefaultCompression, gzip.HuffmanOnly} {
		const n = 20
		writers := make([]*gzip.Writer, n)
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		for i := range writers {
			writers[i], _ = gzip.NewWriterLevel(io.Discard, level)
			_, _ = io.WriteString(writers[i], "event: game\ndata: x\n\n")
			_ = writers[i].Flush()
		}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		per := (int64(m1.HeapAlloc) - int64(m0.HeapAlloc)) / n
		runtime.KeepAlive(writers)
		t.Logf("gzip writer at level %d: %d bytes of heap per idle stream", level, per)
		if per < 20<<10 {
			t.Errorf("a gzip writer costs %d bytes, under the 20 KB an idle spectator may cost: revisit the decision not to compress streams", per)
		}
	}
}

// TestPageWeight measures the bytes on the wire of the home page and of a
// player's game page with everything the game page loads from /static/,
// plain (as before compression) and gzip-compressed (docs/performance.md,
// "Compression").
func TestPageWeight(t *testing.T) {
	e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4", "e7e5"))
	fetch := func(target, acceptEncoding string) []byte {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: "tok-" + ayse.Name})
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", target, rec.Code)
		}
		return rec.Body.Bytes()
	}
	for _, target := range []string{"/", "/games/7"} {
		page := fetch(target, "")
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		urls := map[string]bool{}
		doc.Find(`link[href^="/static/"], script[src^="/static/"], img[src^="/static/"]`).Each(func(_ int, s *goquery.Selection) {
			if v, ok := s.Attr("href"); ok {
				urls[v] = true
			}
			if v, ok := s.Attr("src"); ok {
				urls[v] = true
			}
		})
		var plain, gz int
		for u := range urls {
			plain += len(fetch(u, ""))
			gz += len(fetch(u, "gzip"))
		}
		gzPage := fetch(target, "gzip, deflate, br")
		t.Logf("%s: HTML %d bytes plain, %d gzip; %d static files %d bytes plain, %d gzip; first load %d plain, %d gzip",
			target, len(page), len(gzPage), len(urls), plain, gz, len(page)+plain, len(gzPage)+gz)
		if len(gzPage) >= len(page) || gz >= plain {
			t.Errorf("%s: not smaller compressed", target)
		}
	}
}
