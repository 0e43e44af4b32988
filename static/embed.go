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

// versions maps each file in FS to a short hash of its content.
var versions = sync.OnceValue(func() map[string]string {
	m := make(map[string]string)
	err := fs.WalkDir(FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := FS.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		m[name] = hex.EncodeToString(sum[:6])
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
	return versions()[name]
}

// URL returns the path that serves the file name, with its content version
// as the query ("/static/css/app.css?v=0123456789ab"). For a name that FS
// lacks it returns the plain path, which will answer 404.
func URL(name string) string {
	if v := Version(name); v != "" {
		return Prefix + name + "?v=" + v
	}
	return Prefix + name
}
