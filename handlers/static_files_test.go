package handlers

import (
	"bytes"
	"path"
	"testing"
	"testing/fstest"

	"satranc/static"
)

// TestReadStaticFilesEach: the compressor the files share starts afresh
// for each, so every compressed file, in whatever order the walk takes
// them, decompresses to its own bytes alone; text that compresses to no
// gain is served plain, and other types are never compressed.
func TestReadStaticFilesEach(t *testing.T) {
	repeated := bytes.Repeat([]byte("body { color: #222; }\n"), 200)
	fsys := fstest.MapFS{
		"a.css":     {Data: repeated},
		"b/c.js":    {Data: bytes.Repeat([]byte("let x = 1;\n"), 300)},
		"b/d.svg":   {Data: []byte("<svg/>")}, // too short to gain
		"e.woff2":   {Data: repeated},         // not a compressed type
		"f/g/h.txt": {Data: bytes.Repeat([]byte("satranç "), 500)},
	}
	files, err := readStaticFiles(fsys, func(name string) string { return "v-" + name })
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(fsys) {
		t.Fatalf("%d files, want %d", len(files), len(fsys))
	}
	for name, f := range files {
		if !bytes.Equal(f.data, fsys[name].Data) || f.version != "v-"+name {
			t.Errorf("%s: data or version %q not the file's", name, f.version)
		}
		wantGz := compressedTypes[path.Ext(name)] && name != "b/d.svg"
		if (f.gz != nil) != wantGz {
			t.Errorf("%s: compressed %v, want %v", name, f.gz != nil, wantGz)
			continue
		}
		if f.gz != nil && !bytes.Equal(gunzip(t, f.gz), f.data) {
			t.Errorf("%s: the compressed bytes are not the file's", name)
		}
	}
}

// TestEmbeddedFilesCompressed: every embedded file of a compressed type
// that is served compressed decompresses to its bytes.
func TestEmbeddedFilesCompressed(t *testing.T) {
	n := 0
	for name, f := range embeddedFiles() {
		if f.gz == nil {
			continue
		}
		n++
		if !bytes.Equal(gunzip(t, f.gz), f.data) {
			t.Errorf("%s: the compressed bytes are not the file's", name)
		}
	}
	if n == 0 {
		t.Error("no embedded file is served compressed")
	}
}

// BenchmarkReadStaticFiles measures what reading and compressing the
// embedded files costs at start (B/op is the garbage it leaves).
func BenchmarkReadStaticFiles(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readStaticFiles(static.FS, static.Version); err != nil {
			b.Fatal(err)
		}
	}
}
