package handlers

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"satranc/static"
)

// staticFile is one embedded file as it is served: its bytes, and the same
// bytes gzip-compressed when that makes them smaller.
type staticFile struct {
	data, gz []byte
	ctype    string
	version  string // the content hash static.URL puts in the query
}

// compressedTypes are the extensions of the static files worth compressing:
// text. The icons are SVG, text as well; there are no raster images.
var compressedTypes = map[string]bool{".css": true, ".js": true, ".svg": true, ".txt": true}

// embeddedFiles are the files of static.FS, each compressed once, when the
// routes are built, at the best gzip level: a request then costs no
// compression at all, and the level's extra CPU is paid once per process.
var embeddedFiles = sync.OnceValue(func() map[string]*staticFile {
	m, err := readStaticFiles(static.FS, static.Version)
	if err != nil {
		panic("handlers: static files: " + err.Error()) // embedded files always read
	}
	return m
})

// readStaticFiles reads every file of fsys, versioned by version, and
// compresses those of compressedTypes. One compressor serves them all:
// each takes some 800 KB to make, and one for each file made 57 MB of
// garbage at every start, which the process then held as RSS (115 MB
// four seconds after start instead of 85; docs/performance.md,
// "Compression").
func readStaticFiles(fsys fs.ReadFileFS, version func(name string) string) (map[string]*staticFile, error) {
	m := make(map[string]*staticFile)
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestCompression) // the level is valid
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fsys.ReadFile(name)
		if err != nil {
			return err
		}
		f := &staticFile{data: b, version: version(name), ctype: mime.TypeByExtension(path.Ext(name))}
		if compressedTypes[path.Ext(name)] {
			var buf bytes.Buffer
			zw.Reset(&buf)
			_, _ = zw.Write(b) // a bytes.Buffer does not fail
			_ = zw.Close()
			if buf.Len() < len(b) {
				f.gz = buf.Bytes()
			}
		}
		m[name] = f
		return nil
	})
	return m, err
}

// handleStatic serves the embedded static files. Every file gets an ETag
// (its content hash, with "-gzip" for the compressed bytes, so that a cache
// never answers one encoding's revalidation with the other's), so a
// revalidation costs a 304. A request that names the file's current version
// (?v=, as static.URL writes it) may be cached for good; any other may be
// stored but is revalidated before each use. Text files go gzip-compressed
// to a client that accepts it, except for a Range request, which is
// answered from the plain bytes (ranges of a compressed body help nobody).
// Directories are not listed.
func (h *Handler) staticFiles() http.Handler {
	files := embeddedFiles()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, static.Prefix)
		f := files[name]
		if f == nil {
			h.fail(w, r, errNotFound)
			return
		}
		hd := w.Header()
		if r.URL.Query().Get("v") == f.version {
			hd.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			hd.Set("Cache-Control", "no-cache")
		}
		if f.ctype != "" {
			hd.Set("Content-Type", f.ctype) // not sniffed from compressed bytes
		}
		body, etag := f.data, `"`+f.version+`"`
		if f.gz != nil {
			hd.Add("Vary", "Accept-Encoding")
			if r.Header.Get("Range") == "" && acceptsGzip(r) {
				body, etag = f.gz, `"`+f.version+`-gzip"`
				hd.Set("Content-Encoding", "gzip")
				// ServeContent leaves the length out once an encoding is set.
				hd.Set("Content-Length", strconv.Itoa(len(body)))
			}
		}
		hd.Set("ETag", etag)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(body))
	})
}
