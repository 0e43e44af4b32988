package handlers

import (
	"net/http"
	"strings"

	"satranc/static"
)

// staticFiles serves the embedded static files. Every file gets an ETag
// (its content hash), so a revalidation costs a 304. A request that names
// the file's current version (?v=, as static.URL writes it) may be cached
// for good; any other may be stored but is revalidated before each use.
// Directories are not listed.
func (h *Handler) staticFiles() http.Handler {
	files := http.StripPrefix(static.Prefix, http.FileServerFS(static.FS))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, static.Prefix)
		v := static.Version(name)
		if v == "" {
			h.fail(w, r, errNotFound)
			return
		}
		w.Header().Set("ETag", `"`+v+`"`)
		if r.URL.Query().Get("v") == v {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		files.ServeHTTP(w, r)
	})
}
