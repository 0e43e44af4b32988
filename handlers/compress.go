package handlers

import (
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// minCompressBytes is the smallest page compressed: below about a kilobyte
// gzip's header and the CPU buy next to nothing (an htmx fragment that
// swaps a button), and a small body fits in one packet either way.
const minCompressBytes = 1024

// acceptsGzip reports whether r's Accept-Encoding allows gzip: named with
// a q above zero, or covered by "*" when not named.
func acceptsGzip(r *http.Request) bool {
	star := false
	for _, v := range r.Header.Values("Accept-Encoding") {
		for part := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "x-gzip" && coding != "*" {
				continue
			}
			ok := true
			if k, q, found := strings.Cut(strings.TrimSpace(params), "="); found && strings.TrimSpace(k) == "q" {
				f, err := strconv.ParseFloat(strings.TrimSpace(q), 64)
				ok = err == nil && f > 0
			}
			if coding == "*" {
				star = ok
				continue
			}
			return ok
		}
	}
	return star
}

// compressPages gzip-compresses HTML responses (pages and htmx fragments)
// of at least minCompressBytes for clients that accept gzip. Everything
// else passes through untouched, at once: event streams above all, whose
// events a compressor would hold back (docs/performance.md, "Compression",
// explains why they are not compressed), the static files, which come
// compressed already (Content-Encoding set), and redirects.
func compressPages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !acceptsGzip(r) {
			next.ServeHTTP(w, r)
			return
		}
		cw := &compressWriter{ResponseWriter: w}
		defer cw.close()
		next.ServeHTTP(cw, r)
	})
}

// compressWriter decides, when the head is written, whether a response is
// compressed: an HTML body without a Content-Encoding is held back until
// minCompressBytes have come (or the handler has finished or flushed), so
// that a small one goes out as it is.
type compressWriter struct {
	http.ResponseWriter
	status   int  // the status the handler wrote, not yet passed on
	decided  bool // the head has gone out; zw says how the body goes
	eligible bool
	buf      []byte
	zw       *gzip.Writer
}

func (c *compressWriter) WriteHeader(code int) {
	if c.decided || c.status != 0 {
		return
	}
	if code >= 100 && code < 200 {
		c.ResponseWriter.WriteHeader(code) // informational: another head follows
		return
	}
	c.status = code
	hd := c.Header()
	ct, _, _ := mime.ParseMediaType(hd.Get("Content-Type"))
	c.eligible = ct == "text/html" && hd.Get("Content-Encoding") == "" &&
		code != http.StatusNoContent && code != http.StatusNotModified
	if c.eligible {
		hd.Add("Vary", "Accept-Encoding")
	}
	if !c.eligible {
		c.start(false)
		return
	}
	if n, err := strconv.Atoi(hd.Get("Content-Length")); err == nil {
		c.start(n >= minCompressBytes)
	}
}

// start writes the head, compressed or not.
func (c *compressWriter) start(compress bool) {
	c.decided = true
	if compress {
		hd := c.Header()
		hd.Set("Content-Encoding", "gzip")
		hd.Del("Content-Length")
		if etag := hd.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
			hd.Set("ETag", "W/"+etag) // the compressed bytes are not the same representation
		}
		c.zw = gzipWriters.get()
		c.zw.Reset(c.ResponseWriter)
	}
	c.ResponseWriter.WriteHeader(c.status)
}

func (c *compressWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		if c.Header().Get("Content-Type") == "" {
			c.Header().Set("Content-Type", http.DetectContentType(b))
		}
		c.WriteHeader(http.StatusOK)
	}
	if !c.decided {
		if len(c.buf)+len(b) < minCompressBytes {
			c.buf = append(c.buf, b...)
			return len(b), nil
		}
		// Enough to compress: b goes straight to the compressor, not
		// through a copy (a page comes in one write of 20 KB or more).
		c.start(true)
		if held := c.buf; len(held) > 0 {
			c.buf = nil
			if _, err := c.zw.Write(held); err != nil {
				return 0, err
			}
		}
	}
	if c.zw != nil {
		return c.zw.Write(b)
	}
	return c.ResponseWriter.Write(b)
}

// release sends what is held back uncompressed, as a small body goes.
func (c *compressWriter) release() error {
	if c.decided {
		return nil
	}
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.start(false)
	held := c.buf
	c.buf = nil
	if len(held) == 0 {
		return nil
	}
	_, err := c.ResponseWriter.Write(held)
	return err
}

// FlushError sends what is buffered: a handler that flushes wants its
// bytes on the wire now (http.ResponseController finds it).
func (c *compressWriter) FlushError() error {
	if err := c.release(); err != nil {
		return err
	}
	if c.zw != nil {
		if err := c.zw.Flush(); err != nil {
			return err
		}
	}
	return http.NewResponseController(c.ResponseWriter).Flush()
}

// Flush is http.Flusher's, for code that asserts it.
func (c *compressWriter) Flush() { _ = c.FlushError() }

// Unwrap lets http.ResponseController reach the connection (write
// deadlines, and the hijack of a spectator's stream, which is never
// compressed).
func (c *compressWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// close ends the response once the handler has returned.
func (c *compressWriter) close() {
	if c.status == 0 && !c.decided {
		return // nothing written: net/http sends its own 200
	}
	_ = c.release() // the client may be gone; nothing useful to do then
	if c.zw != nil {
		_ = c.zw.Close()
		c.zw.Reset(io.Discard) // drop the reference to the connection
		gzipWriters.put(c.zw)
		c.zw = nil
	}
}
