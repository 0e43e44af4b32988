// Package static holds the files served under /static/: the stylesheet, the
// vendored htmx scripts, the piece images and the site icons, embedded in the binary.
//
// Pages link to a file through URL, which adds a content version, so a
// response can be cached for good and a changed file still reaches the
// browser at once:
//
//	<link rel="stylesheet" href={ static.URL("css/app.css") }>
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"sync"
)

// Prefix is the URL path under which FS is served.
const Prefix = "/static/"

// FS holds the static files, named relative to Prefix ("css/app.css").
//
//go:embed css/*.css js/*.js js/LICENSE.*.txt img/*.svg img/pieces/*.svg img/pieces/LICENSE.txt img/pieces/*/*.svg img/pieces/*/LICENSE.txt
var FS embed.FS

// file is what the site links with of one file in FS: a short hash of its
// content, and the URL that serves it with the hash as its version.
type file struct{ version, url string }

// files maps each file in FS to its version and URL, made once: a page
// links to dozens of them (the pieces, the scripts, the stylesheet).
var files = sync.OnceValue(func() map[string]file {
	m := make(map[string]file)
	err := fs.WalkDir(FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := FS.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		v := hex.EncodeToString(sum[:6])
		m[name] = file{version: v, url: Prefix + name + "?v=" + v}
		return nil
	})
	if err != nil {
		panic("static: " + err.Error()) // embedded files always read
	}
	return m
})

// Version returns a short hash of the content of the file name, or "" if
// FS has no such file.
func Version(name string) string {
	return files()[name].version
}

// URL returns the path that serves the file name, with its content version
// as the query ("/static/css/app.css?v=0123456789ab"). For a name that FS
// lacks it returns the plain path, which will answer 404.
func URL(name string) string {
	if f, ok := files()[name]; ok {
		return f.url
	}
	return Prefix + name
}
