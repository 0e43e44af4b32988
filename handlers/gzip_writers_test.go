package handlers

import (
	"bytes"
	"compress/gzip"
	"io"
	"runtime"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
)

// TestGzipFreeListKeepsThroughCollections: the compressors given back are
// lent again after collections, which empty a sync.Pool, and each still
// compresses.
func TestGzipFreeListKeepsThroughCollections(t *testing.T) {
	l := newGzipFreeList(keptGzipWriters)
	lent := make(map[*kgzip.Writer]bool)
	var out []*kgzip.Writer
	for range keptGzipWriters + 1 {
		zw := l.get()
		lent[zw] = true
		out = append(out, zw)
	}
	if len(lent) != keptGzipWriters+1 {
		t.Fatalf("%d distinct writers lent for %d gets at once", len(lent), keptGzipWriters+1)
	}
	for _, zw := range out {
		l.put(zw)
	}
	runtime.GC()
	runtime.GC()
	for range keptGzipWriters {
		zw := l.get()
		if !lent[zw] {
			t.Fatal("a writer kept for good was made again after two collections")
		}
		var buf bytes.Buffer
		zw.Reset(&buf)
		if _, err := io.WriteString(zw, "<p>compressed</p>"); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(zr); err != nil || string(got) != "<p>compressed</p>" {
			t.Fatalf("a kept writer compressed %q, %v", got, err)
		}
		zw.Reset(io.Discard)
	}
}
